// An AbortSignal that fires when the client goes away before its response was sent, so work queued
// for it (PDF jobs) is dropped instead of done for no one.
import type { FastifyReply } from 'fastify';

export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  // 'close' also follows a response that was sent in full; only an unfinished one means "gone".
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
