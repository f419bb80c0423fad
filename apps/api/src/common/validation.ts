import { ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError } from '@app/fights';

function firstProblem(errors: ValidationError[], prefix = ''): { field: string; message: string } {
  const e = errors[0];
  const field = prefix ? `${prefix}.${e.property}` : e.property;
  if (e.constraints) return { field, message: Object.values(e.constraints)[0] };
  return e.children?.length ? firstProblem(e.children, field) : { field, message: `${field} is invalid` };
}

/** class-validator on every DTO; unknown fields rejected; the first problem named with its field. */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => {
    const { field, message } = firstProblem(errors);
    return new AppError(400, 'VALIDATION_FAILED', message, field);
  },
});
