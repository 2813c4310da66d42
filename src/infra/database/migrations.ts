import { Foundation1795646006675 } from './migrations/1795646006675-Foundation';

/** Every migration, oldest first. Generated with `npm run migration:generate -- <Name>`, read, then listed here. */
export const MIGRATIONS = [Foundation1795646006675];
