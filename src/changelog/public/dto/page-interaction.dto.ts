import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, Matches } from 'class-validator';
import { idPattern } from '../../../common/ids/ids';

export const SEEN_MAX_ENTRIES = 50;

/** Body of `POST /public/changelog/{project_slug}/seen`: the entries the hosted page showed. */
export class RecordSeenDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: SEEN_MAX_ENTRIES,
    example: ['ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'],
    description: 'Entry ids shown; ids not in the public changelog are skipped.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SEEN_MAX_ENTRIES)
  @Matches(idPattern('ce'), { each: true, message: 'entry_ids must hold changelog entry ids (ce_…)' })
  entry_ids: string[];
}

/** What a view or click call recorded. */
export class PageInteractionResultDto {
  @ApiProperty({
    example: 2,
    minimum: 0,
    description:
      "Entries taken: those of the public changelog among those sent. Past the address's hourly cap for an entry the answer is the same, but the entry's number does not grow.",
  })
  recorded: number;
}
