import { defineMessages } from '../catalogue.js';

/** The money area of the console's messages: keys start with `money.`. */
export const money = defineMessages({}, {});
