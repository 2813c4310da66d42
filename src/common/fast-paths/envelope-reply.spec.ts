import { Controller, Get, HttpCode, Module, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Response } from 'express';
import request from 'supertest';
import { Versioned, WithStatus } from '../http/reply';
import { EnvelopeExpressAdapter } from './envelope-reply';

/**
 * The contract with Nest that the envelope writer relies on: the router hands every result of a
 * handler without `@Res()` to the adapter's `reply(response, result, statusCode)`, once, resolved,
 * with the route's status set on the response or passed. A Nest upgrade that routed results another way would make these fail
 * instead of silently answering bare values.
 */
@Controller()
class ContractController {
  @Get('plain')
  plain(): Promise<object> {
    return Promise.resolve({ id: 'x_1' });
  }

  @Get('created')
  @HttpCode(201)
  created(): object {
    return { made: true };
  }

  @Get('status')
  status(): WithStatus<object> {
    return new WithStatus({ queued: true }, 202);
  }

  @Get('unchanged')
  unchanged(): Versioned<unknown> {
    return new Versioned('W/"t1"', null);
  }

  @Get('own')
  own(@Res() res: Response): void {
    res.status(200).type('text/plain').send('own');
  }
}

@Module({ controllers: [ContractController] })
class ContractModule {}

describe('EnvelopeExpressAdapter (contract with Nest)', () => {
  const replies: { body: unknown; status: number }[] = [];
  let app: NestExpressApplication;

  beforeAll(async () => {
    const adapter = new EnvelopeExpressAdapter();
    const reply = adapter.reply.bind(adapter);
    adapter.reply = (response, body, statusCode) => {
      replies.push({ body, status: statusCode ?? (response as Response).statusCode });
      return reply(response, body, statusCode);
    };
    app = await NestFactory.create<NestExpressApplication>(ContractModule, adapter, { logger: false });
    await app.init();
  });

  afterAll(() => app.close());
  beforeEach(() => (replies.length = 0));

  it("gets the handler's resolved result once, and writes it as the envelope", async () => {
    const res = await request(app.getHttpServer()).get('/plain').expect(200);
    expect(res.body).toEqual({ data: { id: 'x_1' }, error: null });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(replies).toEqual([{ body: { id: 'x_1' }, status: 200 }]);
  });

  it("gets the route's declared status", async () => {
    const res = await request(app.getHttpServer()).get('/created').expect(201);
    expect(res.body).toEqual({ data: { made: true }, error: null });
    expect(replies).toEqual([{ body: { made: true }, status: 201 }]);
  });

  it('writes a status the handler chose, and 304 with the tag for an unchanged version', async () => {
    expect((await request(app.getHttpServer()).get('/status').expect(202)).body).toEqual({ data: { queued: true }, error: null });
    const unchanged = await request(app.getHttpServer()).get('/unchanged').expect(304);
    expect(unchanged.headers.etag).toBe('W/"t1"');
    expect(unchanged.text).toBe('');
  });

  it('is not called for a handler that writes the response itself', async () => {
    expect((await request(app.getHttpServer()).get('/own').expect(200)).text).toBe('own');
    expect(replies).toEqual([]);
  });
});
