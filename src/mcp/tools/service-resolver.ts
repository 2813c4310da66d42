import type { Type } from '@nestjs/common';

/** Where tool groups find the services the REST controllers call (the MCP module's ModuleRef). */
export interface ServiceResolver {
  get<T>(type: Type<T>): T;
}
