import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppError, Principal, ProjectionRunner } from '@app/fights';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { ProjectionStatusModel } from '../common/models';
import { TokenQuery } from '../common/dto';

@ApiTags('operations')
@Controller('projections')
export class ProjectionsController {
  constructor(private readonly runner: ProjectionRunner) {}

  @Get()
  @ApiOperation({ summary: 'Each projection’s checkpoint and lag (events not yet folded)' })
  @ApiOkResponse({ type: [ProjectionStatusModel] })
  status(@CurrentPrincipal() p: Principal, @Query() _query: TokenQuery): Promise<ProjectionStatusModel[]> {
    if (p.kind !== 'admin' && p.kind !== 'tenant')
      throw new AppError(403, 'FORBIDDEN', 'projection status needs an API key', 'authorization');
    return this.runner.status();
  }
}
