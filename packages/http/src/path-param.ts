import { AppError } from './app-error.js';

/**
 * A named path parameter. Express types every parameter as possibly absent or repeated; a `:name` in the
 * route's own path is always one string, so anything else is a routing bug, answered as a missing record.
 */
export function pathParam(req: { params: Record<string, unknown> }, name: string): string {
  const value = req.params[name];
  if (typeof value !== 'string') throw new AppError('not_found', `No route parameter ${name}.`);
  return value;
}
