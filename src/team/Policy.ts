/**
 * The numbers of the dashboard's sign-in, in one place (docs/dashboard.md
 * repeats them): how long a session lasts, how many wrong attempts lock an
 * email out and for how long, how long the two-factor step and an invitation
 * stay open.
 */

/** A session lasts this long from sign-in (absolute; signing in again starts a new one). */
export const sessionHours = 12

/** Wrong passwords or codes for one email within {@link failureWindowMinutes} before it is locked. */
export const maxFailures = 5

/** Failures older than this are forgotten. */
export const failureWindowMinutes = 15

/** How long a locked email stays locked. */
export const lockMinutes = 15

/** The time between a right password and its two-factor code. */
export const challengeMinutes = 10

/** How long an invitation link works. */
export const invitationDays = 7

/** How long a password reset link works (the owner copies it to the teammate by hand). */
export const resetHours = 24

/** The longest name or email a person may give. */
export const nameMax = 80
export const emailMax = 254

/** Emails are compared without case and surrounding spaces. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

/** Whether a string looks like an email address (one `@`, something either side, no spaces). */
export const isEmail = (email: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= emailMax
