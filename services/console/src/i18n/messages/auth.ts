import { defineMessages } from '../catalogue.js';

/** The auth area of the console's messages: keys start with `auth.`. */
export const auth = defineMessages({}, {});
