import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Principal } from '@app/fights';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { ErrorModel } from '../common/models';
import { StartLabRunInput } from './lab.dto';
import { TokenQuery } from '../common/dto';
import { LabCellModel, LabRunModel } from './lab.models';
import { LabService } from './lab.service';
import { Location, seg } from '../common/location';

@ApiTags('lab')
@ApiBearerAuth()
@ApiExtraModels(LabCellModel)
@ApiResponse({ status: 401, type: ErrorModel, description: 'UNAUTHENTICATED or INVALID_CREDENTIALS' })
@ApiResponse({
  status: 403,
  type: ErrorModel,
  description: 'TENANT_ONLY: a tenant key or the admin key is needed',
})
@Controller('lab')
export class LabController {
  constructor(private readonly lab: LabService) {}

  @Post('runs')
  @HttpCode(202)
  @Location((r: LabRunModel) => `/lab/runs/${seg(r.id)}`)
  @ApiOperation({
    summary: 'Start a Combat Lab run in the background: every pair of strategies, many seeded fights each',
  })
  @ApiResponse({ status: 202, type: LabRunModel })
  @ApiResponse({
    status: 422,
    type: ErrorModel,
    description:
      'A sheet breaks the rules (their code, `field` under `sheets[i]`); fights is at most 100,000 per cell',
  })
  @ApiResponse({
    status: 429,
    type: ErrorModel,
    description: 'LAB_BUSY: this instance is running as many runs as it allows',
  })
  start(@CurrentPrincipal() p: Principal, @Body() input: StartLabRunInput): LabRunModel {
    return this.lab.start(p, input);
  }

  @Get('runs/:id')
  @ApiOperation({ summary: 'A lab run: progress (fights done of total) and, once done, the result' })
  @ApiOkResponse({ type: LabRunModel })
  @ApiResponse({ status: 404, type: ErrorModel })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() _query: TokenQuery): LabRunModel {
    return this.lab.get(p, id);
  }
}
