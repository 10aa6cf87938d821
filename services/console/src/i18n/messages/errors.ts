import { defineMessages } from '../catalogue.js';

/** The errors area of the console's messages: keys start with `errors.`. */
export const errors = defineMessages({}, {});
