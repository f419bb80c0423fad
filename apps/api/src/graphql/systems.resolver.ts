import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { AppError } from '@app/fights';
import { findSystem, SYSTEMS } from '@app/rules';
import { describeSystem } from '../common/describe-system';
import { Public } from '../auth/public.decorator';
import { SystemModel } from '../common/models';

@Public()
@Resolver()
export class SystemsResolver {
  @Query(() => [SystemModel], { description: 'Every rule system the service plays' })
  systems(): SystemModel[] {
    return Object.values(SYSTEMS).map(describeSystem);
  }

  @Query(() => SystemModel, { description: 'One rule system (the same as GET /systems/:id)' })
  system(
    @Args('id', { type: () => ID, description: 'The rule system id, e.g. narateer' }) id: string,
  ): SystemModel {
    const system = findSystem(id);
    if (!system) throw new AppError(404, 'SYSTEM_NOT_FOUND', `no rule system ${id}`, 'id');
    return describeSystem(system);
  }
}
