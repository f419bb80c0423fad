import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Principal } from '@app/fights';
import { CurrentPrincipal } from '../auth/principal.decorator';
import { StartLabRunInput } from './lab.dto';
import { LabRunModel } from './lab.models';
import { LabService } from './lab.service';

@Resolver()
export class LabResolver {
  constructor(private readonly lab: LabService) {}

  @Query(() => LabRunModel, { description: 'A Combat Lab run: progress and, once done, the result' })
  labRun(
    @CurrentPrincipal() p: Principal,
    @Args('id', { type: () => ID, description: 'The run id startLabRun gave' }) id: string,
  ): LabRunModel {
    return this.lab.get(p, id);
  }

  @Mutation(() => LabRunModel, {
    description: 'Start a Combat Lab run in the background (the same as POST /lab/runs)',
  })
  startLabRun(
    @CurrentPrincipal() p: Principal,
    @Args('input', { description: 'What to play' }) input: StartLabRunInput,
  ): LabRunModel {
    return this.lab.start(p, input);
  }
}
