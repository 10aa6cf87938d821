import { defineMessages } from '../catalogue.js';

/** The csv area of the console's messages: keys start with `csv.`. */
export const csv = defineMessages({}, {});
