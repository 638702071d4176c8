import { hashCheaplyInTests } from '../modules/auth/passwords.ts';

// The server suites' setup (vitest.config.ts): passwords hashed at a test's cost, not production's.
hashCheaplyInTests();
