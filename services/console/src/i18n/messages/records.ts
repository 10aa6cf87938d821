import { defineMessages } from '../catalogue.js';

/** The records area of the console's messages: keys start with `records.`. */
export const records = defineMessages({}, {});
