import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors/api-error';
import { newId } from '../ids/ids';
import { REQUEST_ID_HEADER } from './request-context';
import { toErrorResponse } from './error-response';

const REASONS: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/** What Node's HTTP parser refused, in our words (its own text is never echoed). */
function refusalOf(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError('REQUEST_HEADERS_TOO_LARGE', 'The request headers are larger than 16 KB.', { param: 'Authorization' });
  }
  return new ApiError('VALIDATION_ERROR', 'The request is not valid HTTP/1.1.');
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (headers over 16 KB above all)
 * get our failure envelope instead of Node's bare status line; the socket is then closed, since
 * the rest of what the client sends cannot be framed. Timeouts and resets keep Node's behaviour.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
      return;
    }
    const requestId = newId('req');
    const { status, body } = toErrorResponse(refusalOf(error.code), requestId);
    const payload = JSON.stringify(body);
    socket.end(
      [
        `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(payload)}`,
        `${REQUEST_ID_HEADER}: ${requestId}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        payload,
      ].join('\r\n'),
    );
  });
}
