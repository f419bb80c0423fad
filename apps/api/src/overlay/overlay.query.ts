import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { QueryDecimal } from '../common/validation';

export const LAYOUTS = ['bar', 'sidebar'] as const;
export const THEMES = ['dark', 'light'] as const;

/** `/overlay/:fightId?token=…&layout=&theme=&scale=`: OBS can only pass a URL, so the token rides in it. */
export class OverlayQuery {
  @IsString() @Length(1, 200) token: string;
  @IsOptional() @IsIn(LAYOUTS) layout?: (typeof LAYOUTS)[number];
  @IsOptional() @IsIn(THEMES) theme?: (typeof THEMES)[number];
  @IsOptional()
  @QueryDecimal(0.5, 3)
  scale?: number;
}
