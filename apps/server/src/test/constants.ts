/** The seeded administrator's password in every test database. */
export const ADMIN_PASSWORD = 'admin-pass-123';
