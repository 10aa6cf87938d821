import { defineMessages } from '../catalogue.js';

/** The review area of the console's messages: keys start with `review.`. */
export const review = defineMessages({}, {});
