import { ApiError } from '../common/errors/api-error';

/** Another project's contact, an erased one and an unknown id all answer the same. */
export const contactNotFound = (contactId: string) =>
  new ApiError('CONTACT_NOT_FOUND', `This project has no contact ${contactId.slice(0, 64)}.`, { param: 'id' });
