import { defineMessages } from '../catalogue.js';

/** The payouts area of the console's messages: keys start with `payouts.`. */
export const payouts = defineMessages({}, {});
