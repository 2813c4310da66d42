import { Global, Module } from '@nestjs/common';
import { BrowserRateLimitGuard } from './browser-rate-limit.guard';
import { RateLimiter } from './rate-limiter';

@Global()
@Module({
  providers: [RateLimiter, BrowserRateLimitGuard],
  exports: [RateLimiter, BrowserRateLimitGuard],
})
export class RateLimitModule {}
