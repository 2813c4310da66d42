import { Body, Controller, Get, HttpCode, Module, OnModuleInit, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { Auth } from '../../src/common/http/route-policy';
import type { EndUser } from '../../src/auth/caller';
import { CurrentEndUser, CurrentProject } from '../../src/auth/current.decorators';
import { EndUserFieldsDto } from '../../src/auth/dto/end-user.dto';
import { EndUserVerifier, SigningSecretSet } from '../../src/auth/end-user-verifier.service';
import { ApiError } from '../../src/common/errors/api-error';
import { newId } from '../../src/common/ids/ids';
import { OutboxService } from '../../src/events/outbox.service';
import { Idempotent } from '../../src/idempotency/idempotent.decorator';
import { idempotently } from '../../src/idempotency/idempotent-call';
import { Database } from '../../src/infra/database/database.service';
import type { ProjectRef } from '../../src/projects/project-ref';
import { RequiresFeature } from '../../src/projects/requires-feature';
import { AuthModule } from '../../src/auth/auth.module';
import { EventsModule } from '../../src/events/events.module';

class ProbeInnerDto {
  @Matches(/^[a-z]+$/)
  code: string;
}

class ProbeNestedDto {
  @ValidateNested()
  @Type(() => ProbeInnerDto)
  inner: ProbeInnerDto;
}

class ProbeThingDto {
  @IsString()
  @Length(1, 50)
  name: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5000)
  delay_ms?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => ProbeNestedDto)
  nested?: ProbeNestedDto;

  @IsOptional()
  @IsIn(['DUPLICATE_SIGNUP', 'VALIDATION_ERROR', 'RATE_LIMITED', 'crash', 'after_commit'])
  fail_with?: string;
}

class ProbeEventDto {
  @IsIn(['commit', 'rollback'])
  outcome: 'commit' | 'rollback';
}

class ProbeBellBodyDto extends EndUserFieldsDto {
  @IsOptional()
  @IsString()
  note?: string;
}

/** The notification signing secrets the end-user probes verify against, set by each test. */
export const PROBE_SIGNING_SECRETS = new Map<string, SigningSecretSet>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Test-only routes that exercise the kernel (idempotency, validation, outbox, rate limit, gates). */
@Controller('v1/_probe')
export class ProbeController implements OnModuleInit {
  static executions = 0;

  constructor(
    private readonly db: Database,
    private readonly outbox: OutboxService,
    private readonly endUsers: EndUserVerifier,
  ) {}

  onModuleInit(): void {
    this.endUsers.useSigningSecrets((projectId) =>
      Promise.resolve(PROBE_SIGNING_SECRETS.get(projectId) ?? { current: null, previous: null }),
    );
  }

  @Get('bell')
  @Auth('publishable', { userHash: 'unless_legacy' })
  bellRead(@CurrentEndUser() user: EndUser, @Query() _query: EndUserFieldsDto): EndUser {
    return user;
  }

  @Post('bell')
  @HttpCode(200)
  @Auth('publishable', { userHash: 'unless_legacy' })
  bellWrite(@CurrentEndUser() user: EndUser, @Body() _body: ProbeBellBodyDto): EndUser {
    return user;
  }

  @Get('bell/strict')
  @Auth('publishable', { userHash: 'required' })
  bellStrict(@CurrentEndUser() user: EndUser, @Query() _query: EndUserFieldsDto): EndUser {
    return user;
  }

  @Get('widget')
  @Auth('publishable', { userHash: 'required', endUser: 'optional' })
  widgetRead(@CurrentEndUser() user: EndUser | null, @Query() _query: EndUserFieldsDto): { user: EndUser | null } {
    return { user };
  }

  @Post('things')
  @Auth('secret')
  @Idempotent()
  async createThing(@Body() body: ProbeThingDto): Promise<{ id: string; name: string; execution: number }> {
    const thing = await this.db.transaction((em) =>
      idempotently(em, body, async () => {
        ProbeController.executions += 1;
        const execution = ProbeController.executions;
        if (body.delay_ms) await sleep(body.delay_ms);
        if (body.fail_with === 'crash') throw new Error('probe crash');
        if (body.fail_with && body.fail_with !== 'after_commit') {
          throw new ApiError(body.fail_with as 'DUPLICATE_SIGNUP', 'Probe failure', { param: 'fail_with' });
        }
        return { id: newId('evt'), name: body.name, execution };
      }),
    );
    if (body.fail_with === 'after_commit') throw new Error('probe failure after commit');
    return thing;
  }

  @Post('browser')
  @HttpCode(200)
  @Auth('publishable')
  browserCall(): { ok: true } {
    return { ok: true };
  }

  @Post('public')
  @HttpCode(200)
  @Auth('none', { browser: true })
  publicCall(): { ok: true } {
    return { ok: true };
  }

  @Post('gated')
  @HttpCode(200)
  @Auth('secret')
  @RequiresFeature('webhooks')
  gatedCall(): { ok: true } {
    return { ok: true };
  }

  @Post('events')
  @HttpCode(200)
  @Auth('secret')
  async recordEvent(@CurrentProject() project: ProjectRef, @Body() body: ProbeEventDto): Promise<{ event_id: string }> {
    return this.db.transaction(async (em) => {
      const event = await this.outbox.record(em, project.id, 'waitlist.signups.invited', {
        count: 0,
        invited: [],
        invited_at: new Date().toISOString(),
      });
      if (body.outcome === 'rollback') throw new ApiError('DUPLICATE_SIGNUP', 'Probe rollback');
      return { event_id: event.id };
    });
  }
}

@Module({ imports: [AuthModule, EventsModule], controllers: [ProbeController] })
export class ProbeModule {}
