// The contracts' messages (every server message in both languages), imported by the sign-in page
// only when it has one to show: most sign-ins show none (signin/SignInPage.tsx).
export { issuesToErrors, translate } from '@depot/contracts';
