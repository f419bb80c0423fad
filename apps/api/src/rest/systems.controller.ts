import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AppError } from '@app/fights';
import { findSystem, SYSTEMS } from '@app/rules';
import { ErrorModel, SystemModel } from '../common/models';
import { describeSystem } from '../common/describe-system';
import { Public } from '../auth/public.decorator';
import { asyncApiDocument } from '../common/asyncapi';

@ApiTags('systems')
@Public()
@Controller()
export class SystemsController {
  @Get('asyncapi.json')
  @ApiOperation({
    summary:
      'The AsyncAPI 3 document of what the service pushes (SSE, graphql-ws, webhooks): every event type with its payload schema',
  })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  asyncapi(): Record<string, unknown> {
    return (this.asyncapiDoc ??= asyncApiDocument());
  }

  private asyncapiDoc?: Record<string, unknown>;

  @Get('systems')
  @ApiOperation({ summary: 'Every rule system with its data, rulings and commands' })
  @ApiOkResponse({ type: [SystemModel] })
  list(): SystemModel[] {
    return Object.values(SYSTEMS).map(describeSystem);
  }

  @Get('systems/:id')
  @ApiOperation({
    summary: 'One rule system: its data, rulings, and the JSON Schema of every command, event and the sheet',
  })
  @ApiOkResponse({ type: SystemModel })
  @ApiResponse({ status: 404, type: ErrorModel })
  get(@Param('id') id: string): SystemModel {
    const system = findSystem(id);
    if (!system) throw new AppError(404, 'SYSTEM_NOT_FOUND', `no rule system ${id}`, 'id');
    return describeSystem(system);
  }
}
