import { connect } from 'node:net';

/**
 * Raw bytes on a socket to the app at `url`: `raw` written (its parts one after another), then everything
 * the server sent until it closed the connection, or until the text read matches `until`.
 */
export function onSocket(url: string, raw: string | string[], until?: RegExp): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      for (const part of [raw].flat()) socket.write(part);
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (until?.test(text)) socket.destroy();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The status lines of the answers in `text`, in order (an answer follows the body before it on the same line). */
export const statusLines = (text: string): string[] => text.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];
