/** The one error shape of every interface (DESIGN.md "Interfaces"). */
export interface ApiError {
  statusCode: number;
  code: string;
  message: string;
  field?: string;
}
