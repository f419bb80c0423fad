/** The one error shape of every interface (DESIGN.md "Interfaces"). */
export interface ApiError {
  statusCode: number;
  code: string;
  message: string;
  field?: string;
  /** Every failing field of a refused command or sheet (the first is `field`). */
  issues?: Array<{ field: string; code: string; message: string }>;
}
