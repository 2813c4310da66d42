import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn } from 'class-validator';
import { MAX_REACTION_SET, REACTION_NAMES, type ReactionName } from '../../shared/reaction-set';

const REACTION_SET_DOC = {
  type: 'array',
  items: { type: 'string', enum: [...REACTION_NAMES] },
  maxItems: MAX_REACTION_SET,
  uniqueItems: true,
  example: ['like', 'celebrate', 'dislike'],
  description: 'The reactions readers can give, in this order; at most 5, no repeats. An empty list switches reactions off.',
} as const;

/** The changelog settings of a project (spec: Reaction set). */
export class ChangelogSettingsDto {
  @ApiProperty(REACTION_SET_DOC as object)
  reaction_set: ReactionName[];
}

export class UpdateChangelogSettingsDto {
  @ApiProperty(REACTION_SET_DOC as object)
  @IsArray()
  @ArrayMaxSize(MAX_REACTION_SET)
  @IsIn(REACTION_NAMES, { each: true, message: `each value in reaction_set must be one of: ${REACTION_NAMES.join(', ')}` })
  @ArrayUnique({ message: 'reaction_set must not name a reaction twice' })
  reaction_set: ReactionName[];
}
