import { IsString, Length } from 'class-validator';

/** `/replay/:fightId?token=…`: a spectator token (or any that may read the fight), as the overlay takes it. */
export class ReplayQuery {
  @IsString() @Length(1, 200) token: string;
}
