import { type Command, JSON_OPTION as json } from '../../common/cli/command';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ResealService } from './reseal.service';

/** The operator's commands for ENCRYPTION_KEY; src/cli/cli-commands.ts lists them. */
export const ENCRYPTION_COMMANDS: Record<string, Command> = {
  'encryption:reseal': {
    usage: 'encryption:reseal [--json]   (ENCRYPTION_KEY: the new key; ENCRYPTION_KEY_PREVIOUS: the key the secrets are sealed with now)',
    summary:
      'Re-seals every stored secret from ENCRYPTION_KEY_PREVIOUS to ENCRYPTION_KEY in one transaction and records the new key, so servers start with it. ' +
      'Keys come from the environment, never the command line. Safe to run again. Stop the servers and workers first; start them with the new key after. ' +
      'Prints {resealed: {<table>: values}, unchanged: {<table>: values}}.',
    options: { json },
    async run(context) {
      const config = context.get<AppConfig>(APP_CONFIG);
      const previous = config.encryptionKeyPrevious;
      const current = config.encryptionKey;
      if (!previous) throw new Error('ENCRYPTION_KEY_PREVIOUS is not set: set it to the key the stored secrets are sealed with now.');
      if (!current) throw new Error('ENCRYPTION_KEY is not set: set it to the new key.');
      if (previous.equals(current)) {
        throw new Error('ENCRYPTION_KEY_PREVIOUS is the same key as ENCRYPTION_KEY: there is nothing to re-seal.');
      }
      return { ...(await context.get(ResealService).reseal(previous, current)) };
    },
  },
};
