import { Type } from 'class-transformer';
import { IsIn, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export const LAYOUTS = ['bar', 'sidebar'] as const;
export const THEMES = ['dark', 'light'] as const;

/** `/overlay/:fightId?token=…&layout=&theme=&scale=`: OBS can only pass a URL, so the token rides in it. */
export class OverlayQuery {
  @IsString() @Length(1, 200) token: string;
  @IsOptional() @IsIn(LAYOUTS) layout?: (typeof LAYOUTS)[number];
  @IsOptional() @IsIn(THEMES) theme?: (typeof THEMES)[number];
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.5)
  @Max(3)
  scale?: number;
}
