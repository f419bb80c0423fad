import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream';
import { endGently } from './http-reply';

/**
 * Node hands a CONNECT request to the server's `connect` listeners and nothing else, and with none it
 * destroyed the socket without a byte. No route tunnels: this gives the request to the server's own
 * request listener (Fastify), so that CONNECT is answered as any method a path does not have (405
 * METHOD_NOT_ALLOWED with Allow, 404 where no method has the path), with the same headers, request id
 * and log line. Node has taken its HTTP parser off the socket, so the answer says `Connection: close`
 * and the connection ends after it; bytes sent after the request are never read as another. A CONNECT
 * pipelined behind another request is answered after that one's answer.
 */
export function answerConnect(server: Server) {
  const answer = (req: IncomingMessage, socket: Socket): void => {
    if (socket.destroyed || !socket.writable) return;
    // A CONNECT pipelined behind a request still being answered: that answer goes first, whole.
    const earlier = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (earlier && !earlier.writableFinished)
      return void finished(earlier, () => setImmediate(() => answer(req, socket)));
    if (earlier) return void socket.destroy();
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.on('finish', () => endGently(socket));
    server.emit('request', req, res);
  };
  return (req: IncomingMessage, socket: Socket): void => {
    socket.on('error', () => socket.destroy());
    answer(req, socket);
  };
}
