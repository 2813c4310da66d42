import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { REQUEST_ID_HEADER, requestIdOf, takeBeforeAnswer } from './request-context';
import { StoredResponse, toErrorResponse } from './error-response';

/** The one writer of the failure envelope, for every error: ours, validation, parsing, routing, unknown. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    writeError(exception, http.getRequest<Request>(), http.getResponse<Response>());
  }
}

const logger = new Logger('ExceptionFilter');

export function writeError(exception: unknown, req: Request, res: Response): void {
  if (res.headersSent) return;
  if (exception instanceof StoredResponse) {
    res.status(exception.status).set(exception.headers).json(exception.body);
    return;
  }
  const requestId = requestIdOf(req);
  const { status, headers, body } = toErrorResponse(exception, requestId);
  const write = () =>
    res
      .status(status)
      .set({ ...headers, [REQUEST_ID_HEADER]: requestId })
      .json(body);
  const hook = takeBeforeAnswer(req);
  if (!hook) return void write();
  hook({ status, headers: { ...headers, [REQUEST_ID_HEADER]: requestId }, body })
    .catch((error: unknown) => logger.warn(`before-answer hook failed: ${(error as Error).message}`))
    .finally(write);
}
