import { defineMessages } from '../catalogue.js';

/** The client area of the console's messages: keys start with `client.`. */
export const client = defineMessages({}, {});
