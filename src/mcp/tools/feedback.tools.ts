import { FeedbackDetailDto, FeedbackDto } from '../../feedback/dto/feedback.dto';
import { ListFeedbackQueryDto } from '../../feedback/dto/list-feedback-query.dto';
import { FeedbackService } from '../../feedback/feedback.service';
import { READ, type ToolDefinition, listOutput } from '../tool-kit';
import { dtoJsonSchema } from '../tool-schemas';
import type { ServiceResolver } from './service-resolver';

/** The feedback group: read what users sent, as classified on arrival. */
export function feedbackTools(services: ServiceResolver): ToolDefinition[] {
  const feedback = services.get(FeedbackService);
  return [
    {
      name: 'list_feedback',
      group: 'feedback',
      title: 'List feedback',
      description:
        'Feedback users sent, newest first, with its classification (bug, feature request, praise, …), summary and rating; filter by classification, changelog entry, user id or time. Items say has_email, not the email (get_feedback shows it). Returns {items, next_cursor}. All plans.',
      annotations: READ,
      input: { dto: ListFeedbackQueryDto, from: 'query' },
      rest: { method: 'get', path: '/v1/feedback' },
      output: listOutput(dtoJsonSchema(FeedbackDto, { closed: false })),
      run: (caller, { input }) => feedback.listFeedback(caller.project, input as ListFeedbackQueryDto),
    },
    {
      name: 'get_feedback',
      group: 'feedback',
      title: 'Get one feedback',
      description:
        'One feedback by id, with the full text and the email the person gave (personal data: quote it only to the owner). All plans.',
      annotations: READ,
      input: { id: { prefix: 'fb', description: 'The feedback id (fb_…).' } },
      rest: { method: 'get', path: '/v1/feedback/{feedback_id}' },
      output: dtoJsonSchema(FeedbackDetailDto, { closed: false }),
      run: (caller, { id }) => feedback.getFeedback(caller.project, id),
    },
  ];
}
