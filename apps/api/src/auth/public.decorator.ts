import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';
/** Routes that need no key: system descriptions. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
