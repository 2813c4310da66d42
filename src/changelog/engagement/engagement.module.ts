import { Module } from '@nestjs/common';
import { EngagementCaps } from './engagement-caps.service';
import { EngagementFlusher } from './engagement-flusher.service';
import { EngagementRecorder } from './engagement-recorder.service';
import { EngagementRedisBuffer } from './engagement-redis-buffer.service';
import { RateLimitModule } from '../../infra/rate-limit/rate-limit.module';

/**
 * Views, clicks and reads of changelog entries, as the hosted page and the widget report them: the
 * per-address caps, the buffered recorder and the flush of its batches into the counts. Its own
 * module, below both surfaces, because both record through it.
 */
@Module({
  imports: [RateLimitModule],
  providers: [EngagementCaps, EngagementRecorder, EngagementRedisBuffer, EngagementFlusher],
  exports: [EngagementCaps, EngagementRecorder],
})
export class ChangelogEngagementModule {}
