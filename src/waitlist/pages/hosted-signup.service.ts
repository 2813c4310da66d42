import { Inject, Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ApiError } from '../../common/errors/api-error';
import { RawReply } from '../../common/http/reply';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectsService } from '../../projects/projects.service';
import { ProjectSlugsService } from '../../projects/slug-history/project-slugs.service';
import { isValidSlug } from '../../projects/slugs';
import { CreateSignupDto } from '../dto/create-signup.dto';
import { REFERRAL_CODE_PATTERN, normalizeReferralCode, referralLink } from '../referral';
import { SignupsService } from '../signups.service';
import { TURNSTILE_FORM_FIELD, signupDonePage, signupFormPage, unknownWaitlistPage } from './waitlist-pages';

/** The fields the hosted form posts (application/x-www-form-urlencoded). */
export type SignupForm = Record<string, unknown>;

const FIELD_MESSAGES: Record<string, string> = {
  email: 'Enter a valid email address (at most 254 characters).',
  turnstile_token: 'The bot check did not complete. Try again.',
};

function formText(form: SignupForm, field: string): string | undefined {
  const value = form[field];
  return typeof value === 'string' ? value : undefined;
}

/** A referral code from a link or a hidden field, or null: a mistyped link still lets the person join. */
function referrerCodeOf(value: unknown): string | null {
  return typeof value === 'string' && REFERRAL_CODE_PATTERN.test(value) ? normalizeReferralCode(value) : null;
}

/**
 * The hosted signup page `{base_url}/w/{slug}?ref=CODE` (the referral link): a form that works
 * without JavaScript and posts to the same address; the signup goes through SignupsService like an
 * API call (same validation, bot check, positions, referral credit, email, event), as a browser
 * call (channel `widget`). Errors come back as the form again with a message, never as JSON.
 */
@Injectable()
export class HostedSignupService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projects: ProjectsService,
    private readonly signups: SignupsService,
    private readonly slugs: ProjectSlugsService,
  ) {}

  /** `customDomain`: the verified custom domain the page is served on, which its canonical link and the referral link then use. */
  async showSignupForm(slug: string, ref: unknown, customDomain: string | null = null): Promise<RawReply> {
    const project = await this.projectAt(slug);
    if (!project) return unknownWaitlistPage();
    return this.form(project, slug, customDomain, { referrerCode: referrerCodeOf(ref) });
  }

  async submitSignupForm(slug: string, form: SignupForm, ip: string | null, customDomain: string | null = null): Promise<RawReply> {
    const project = await this.projectAt(slug);
    if (!project) return unknownWaitlistPage();
    const referrerCode = referrerCodeOf(form.ref);
    const email = formText(form, 'email') ?? '';
    const input = plainToInstance(CreateSignupDto, {
      email,
      referrer_code: referrerCode ?? undefined,
      turnstile_token: formText(form, TURNSTILE_FORM_FIELD) || undefined,
      source: { landing_path: `/w/${slug}` },
    });
    const [problem] = await validate(input, { whitelist: true, forbidNonWhitelisted: true });
    if (problem) {
      const message = FIELD_MESSAGES[problem.property] ?? `Check the ${problem.property} field.`;
      return this.form(project, slug, customDomain, { referrerCode, email, error: message, status: 400 });
    }
    try {
      const result = await this.signups.createSignup(project, input, { kind: 'none', ip });
      // Shared from the custom domain, the link leads back to it (the API's referral_link stays on PUBLIC_BASE_URL).
      const link =
        customDomain === null ? result.referral_link : referralLink(`https://${customDomain}`, project.slug, result.referral_code);
      return signupDonePage({ projectName: project.name, position: result.position, referralLink: link });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const page = this.form(project, slug, customDomain, { referrerCode, email, error: error.message, status: error.status });
      return new RawReply(page.body, page.contentType, page.status, { ...page.headers, ...error.headers });
    }
  }

  // A renamed project's old slug redirects (308) to the same address under the current one, so
  // old referral links keep working; the form posts back to the address it was opened at.
  private async projectAt(slug: string): Promise<ProjectRef | null> {
    const project = isValidSlug(slug) ? await this.projects.findBySlug(slug) : null;
    if (!project) await this.slugs.redirectIfRenamed(slug, 'slug');
    return project;
  }

  private form(
    project: ProjectRef,
    slug: string,
    customDomain: string | null,
    view: { referrerCode: string | null; email?: string; error?: string; status?: number },
  ): RawReply {
    const origin = customDomain === null ? this.config.publicBaseUrl : `https://${customDomain}`;
    const canonical = `${origin}/w/${project.slug}`;
    return signupFormPage({ projectName: project.name, slug, turnstileSiteKey: this.turnstileSiteKey(), canonical, ...view });
  }

  // The widget only makes sense when tokens are checked; without a site key the form still posts
  // and the bot check answers its own error, which the page shows.
  private turnstileSiteKey(): string | null {
    return this.config.turnstile.secret !== null ? this.config.turnstile.siteKey : null;
  }
}
