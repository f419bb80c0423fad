import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AppError } from '@app/fights';
import { findSystem, SYSTEMS } from '@app/rules';
import { ErrorModel, SystemModel } from '../common/models';
import { describeSystem } from '../common/describe-system';
import { Public } from '../auth/public.decorator';

@ApiTags('systems')
@Public()
@Controller('systems')
export class SystemsController {
  @Get()
  @ApiOperation({ summary: 'Every rule system with its data, rulings and commands' })
  @ApiOkResponse({ type: [SystemModel] })
  list(): SystemModel[] {
    return Object.values(SYSTEMS).map(describeSystem);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One rule system' })
  @ApiOkResponse({ type: SystemModel })
  @ApiResponse({ status: 404, type: ErrorModel })
  get(@Param('id') id: string): SystemModel {
    const system = findSystem(id);
    if (!system) throw new AppError(404, 'SYSTEM_NOT_FOUND', `no rule system ${id}`, 'id');
    return describeSystem(system);
  }
}
