import type { Server } from 'node:http';
import request from 'supertest';
import type { Test } from 'supertest';
import { OpenApiValidator } from './openapi-validator';

type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/**
 * supertest with the house rules: every response is checked against the committed OpenAPI document.
 * The target is an in-process server or the base URL of a running one (a child process).
 */
export class ApiClient {
  constructor(
    private readonly server: Server | string,
    private readonly token: string | null = null,
    private readonly validate = true,
  ) {}

  /** The same client, sending `Authorization: Bearer <token>`. */
  as(token: string): ApiClient {
    return new ApiClient(this.server, token, this.validate);
  }

  /** The same client without the OpenAPI check (for deliberately odd requests). */
  unchecked(): ApiClient {
    return new ApiClient(this.server, this.token, false);
  }

  get(path: string): Test {
    return this.request('get', path);
  }
  head(path: string): Test {
    return this.request('head', path);
  }
  post(path: string): Test {
    return this.request('post', path);
  }
  put(path: string): Test {
    return this.request('put', path);
  }
  patch(path: string): Test {
    return this.request('patch', path);
  }
  delete(path: string): Test {
    return this.request('delete', path);
  }
  options(path: string): Test {
    return this.request('options', path);
  }

  private request(method: Method, path: string): Test {
    const test = request(this.server)[method](path);
    if (this.token) test.set('Authorization', `Bearer ${this.token}`);
    if (this.validate && method !== 'options') {
      test.expect((res) => OpenApiValidator.instance().check(method, path, res));
    }
    return test;
  }
}
