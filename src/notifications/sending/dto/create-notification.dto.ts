import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  Matches,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';
import { idPattern } from '../../../common/ids/ids';
import { CharLength } from '../../../common/validation/char-length';
import { IsDateTime } from '../../../common/validation/date-time';
import { emailProblem, normalizeEmail } from '../../../common/validation/email-field';
import { ContactsFilterDto } from '../../../contacts/dto/contact-filter.dto';
import { NOTIFICATION_ICONS, type NotificationIcon } from '../../entities/notification.entity';
import { CATEGORY_PATTERN, NOTIFICATION_LIMITS, dataProblem, linkProblem, reactionsInputProblem } from '../notification-input';

/**
 * A custom rule whose message comes from a pure `problem` function (null when the value is fine).
 * With `each`, the message names the first item that fails (`emails.2 must …`), not the list.
 */
function Satisfies(name: string, problem: (value: unknown) => string | null, options?: ValidationOptions): PropertyDecorator {
  const describe = (property: string, value: unknown): string => {
    const index = options?.each && Array.isArray(value) ? value.findIndex((item) => problem(item) !== null) : -1;
    if (index >= 0) return `${property}.${index} ${problem((value as unknown[])[index])}`;
    return `${property} ${problem(value) ?? 'is invalid'}`;
  };
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args) => describe(args?.property ?? name, args?.value),
      },
    },
    options,
  );
}

const normalizeEmails = ({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? normalizeEmail(item) : item)) : value;

export class NotificationActionInputDto {
  @ApiProperty({ example: 'Open report', maxLength: NOTIFICATION_LIMITS.actionLabelMax })
  @CharLength(1, NOTIFICATION_LIMITS.actionLabelMax)
  label: string;

  @ApiProperty({ example: '/reports/42', maxLength: NOTIFICATION_LIMITS.urlMax, description: 'An http(s) URL or a site path ("/…").' })
  @Satisfies('link', linkProblem)
  url: string;
}

/** The four group fields (spec: Create input), shared by a group send and the audience preview. */
export class AudienceInputDto {
  @ApiPropertyOptional({ type: [String], maxItems: NOTIFICATION_LIMITS.groupListMax, example: ['user_1', 'user_2'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_LIMITS.groupListMax)
  @CharLength(1, NOTIFICATION_LIMITS.userIdMax, { each: true })
  user_ids?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: NOTIFICATION_LIMITS.groupListMax, example: ['ada@example.com'] })
  @IsOptional()
  @Transform(normalizeEmails)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_LIMITS.groupListMax)
  @Satisfies('email', emailProblem, { each: true })
  emails?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: NOTIFICATION_LIMITS.groupListMax, example: ['ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_LIMITS.groupListMax)
  @Matches(idPattern('ct'), { each: true, message: 'contact_ids must hold contact ids (ct_…)' })
  contact_ids?: string[];

  @ApiPropertyOptional({ type: ContactsFilterDto, description: 'Everyone matching this contacts filter; `{}` matches every contact.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ContactsFilterDto)
  contacts?: ContactsFilterDto;
}

/** Spec: Notification → Create input. Target: `user_id`, `audience: "all"`, or the group fields. */
export class CreateNotificationDto extends AudienceInputDto {
  @ApiPropertyOptional({
    example: 'user_42',
    maxLength: NOTIFICATION_LIMITS.userIdMax,
    description: 'The one person; not with audience all or a group.',
  })
  @IsOptional()
  @CharLength(1, NOTIFICATION_LIMITS.userIdMax)
  user_id?: string;

  @ApiPropertyOptional({ enum: ['user', 'all'], default: 'user', description: '`all`: every user of the product (a broadcast).' })
  @IsOptional()
  @IsIn(['user', 'all'])
  audience?: 'user' | 'all';

  @ApiProperty({ example: 'Your export is ready', maxLength: NOTIFICATION_LIMITS.titleMax })
  @CharLength(1, NOTIFICATION_LIMITS.titleMax)
  @Matches(/\S/, { message: 'title must not be blank' })
  title: string;

  @ApiProperty({
    example: 'The PDF of March is ready to download.',
    maxLength: NOTIFICATION_LIMITS.bodyMax,
    description: 'Plain text; shown as typed, never as HTML.',
  })
  @CharLength(1, NOTIFICATION_LIMITS.bodyMax)
  @Matches(/\S/, { message: 'body must not be blank' })
  body: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '/reports/42',
    maxLength: NOTIFICATION_LIMITS.urlMax,
    description: 'An http(s) URL or a site path ("/…", not "//…").',
  })
  @IsOptional()
  @Satisfies('link', linkProblem)
  action_url?: string | null;

  @ApiPropertyOptional({ enum: NOTIFICATION_ICONS, default: 'info', example: 'check' })
  @IsOptional()
  @IsIn(NOTIFICATION_ICONS)
  icon?: NotificationIcon;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'billing',
    pattern: CATEGORY_PATTERN.source,
    description: 'Lower-case letters, digits, "_" and "-", at most 32 characters.',
  })
  @IsOptional()
  @Matches(CATEGORY_PATTERN, {
    message: 'category must be 1 to 32 lower-case letters, digits, "_" or "-", starting with a letter or digit',
  })
  category?: string | null;

  @ApiPropertyOptional({ type: [NotificationActionInputDto], maxItems: NOTIFICATION_LIMITS.actionsMax, description: 'Up to 2 buttons.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(NOTIFICATION_LIMITS.actionsMax)
  @ValidateNested({ each: true })
  @Type(() => NotificationActionInputDto)
  actions?: NotificationActionInputDto[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { report_id: 42 },
    description: 'At most 2048 bytes as JSON; returned, never displayed.',
  })
  @IsOptional()
  @Satisfies('data', dataProblem)
  data?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-12-01T09:00:00Z',
    description: 'At most 60 days ahead; a past time means now.',
  })
  @IsOptional()
  @IsDateTime()
  send_at?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string' }, maxItems: NOTIFICATION_LIMITS.reactionsMax }],
    example: ['like', 'celebrate'],
    description: "`true`: the project's changelog reaction set; or an ordered list of at most 5 names from it.",
  })
  @IsOptional()
  @Satisfies('reactions', reactionsInputProblem)
  reactions?: boolean | string[];

  @ApiPropertyOptional({ example: false, description: 'Stays on top of the bell, read or not, until each person archives it.' })
  @IsOptional()
  @IsBoolean()
  pinned?: boolean;
}
