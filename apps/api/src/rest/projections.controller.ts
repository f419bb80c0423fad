import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ProjectionRunner } from '@app/fights';
import { ProjectionStatusModel } from '../common/models';

@ApiTags('operations')
@Controller('projections')
export class ProjectionsController {
  constructor(private readonly runner: ProjectionRunner) {}

  @Get()
  @ApiOperation({ summary: 'Each projection’s checkpoint and lag (events not yet folded)' })
  @ApiOkResponse({ type: [ProjectionStatusModel] })
  status(): Promise<ProjectionStatusModel[]> {
    return this.runner.status();
  }
}
