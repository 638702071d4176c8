import fs from 'node:fs/promises';
import path from 'node:path';
import { BUNDLED_FONTS, type Locale, type Profile, type PublicSettings, titleOf } from '@depot/contracts';
import { escapeHtml } from '../../kit/html.ts';
import { fontFaces } from '../../kit/pdf.ts';

/**
 * The downloadable profile: an HTML page printed to PDF by Chromium (playwright-core and Debian's
 * chromium), because Chromium shapes Khmer (subscripts, vowels) where JavaScript PDF libraries do
 * not (kit/pdf.ts prints it).
 */
const LABELS: Record<string, Record<Locale, string>> = {
  heading: { en: 'Profile', kh: 'ប្រវត្តិរូប' },
  personal: { en: 'Personal details', kh: 'ព័ត៌មានផ្ទាល់ខ្លួន' },
  contact: { en: 'Contact', kh: 'ទំនាក់ទំនង' },
  emergency: { en: 'Emergency contact', kh: 'ទំនាក់ទំនងពេលអាសន្ន' },
  work: { en: 'Work', kh: 'ការងារ' },
  name: { en: 'Username', kh: 'ឈ្មោះអ្នកប្រើប្រាស់' },
  full_name: { en: 'Full name', kh: 'ឈ្មោះពេញ' },
  gender: { en: 'Gender', kh: 'ភេទ' },
  date_of_birth: { en: 'Date of birth', kh: 'ថ្ងៃខែឆ្នាំកំណើត' },
  nationality: { en: 'Nationality', kh: 'សញ្ជាតិ' },
  email: { en: 'Email', kh: 'អ៊ីមែល' },
  phone: { en: 'Phone', kh: 'លេខទូរស័ព្ទ' },
  address: { en: 'Address', kh: 'អាសយដ្ឋាន' },
  location: { en: 'Location', kh: 'ទីតាំង' },
  timezone: { en: 'Time zone', kh: 'ល្វែងម៉ោង' },
  relationship: { en: 'Relationship', kh: 'ទំនាក់ទំនងជាមួយ' },
  position: { en: 'Position', kh: 'មុខតំណែង' },
  join_date: { en: 'Join date', kh: 'ថ្ងៃចូលបម្រើការងារ' },
  store: { en: 'Store', kh: 'ហាង' },
  roles: { en: 'Roles', kh: 'តួនាទី' },
  bio: { en: 'About', kh: 'អំពីខ្លួន' },
  skills: { en: 'Skills', kh: 'ជំនាញ' },
  printed: { en: 'Printed on', kh: 'បោះពុម្ពនៅថ្ងៃ' },
  male: { en: 'Male', kh: 'ប្រុស' },
  female: { en: 'Female', kh: 'ស្រី' },
  other: { en: 'Other', kh: 'ផ្សេងទៀត' },
};

/** 2026-03-01 → 01/03/2026, as both languages print a date (KHMER.md). */
const printedDate = (value: string | null) => (value ? value.slice(0, 10).split('-').reverse().join('/') : null);

/** The profile as the HTML page Chromium prints (exported for its test). */
export async function profileHtml(
  profile: Profile,
  settings: PublicSettings,
  locale: Locale,
  images: { picture: string | null; logo: string | null },
  today: string,
): Promise<string> {
  const { picture, logo } = images;
  const l = (key: string) => escapeHtml(LABELS[key][locale]);
  const font = (BUNDLED_FONTS as readonly string[]).includes(settings.font_family)
    ? settings.font_family
    : 'Kantumruy Pro';
  const faces = await fontFaces(font);
  const fallback = font === 'Kantumruy Pro' ? '' : await fontFaces('Kantumruy Pro');
  const row = (key: string, value: string | null | undefined) =>
    value ? `<tr><th>${l(key)}</th><td>${escapeHtml(value)}</td></tr>` : '';
  const section = (key: string, rows: string) => (rows ? `<h2>${l(key)}</h2><table>${rows}</table>` : '');
  const roles = profile.roles.map((r) => (locale === 'kh' ? r.label_kh : r.label_en)).join(', ');
  return `<!doctype html><html lang="${locale === 'kh' ? 'km' : 'en'}"><head><meta charset="utf-8">
<style>
${faces}
${fallback}
@page{size:A4;margin:16mm}
body{font-family:'${font}','Kantumruy Pro',sans-serif;color:#1f2937;font-size:11pt;line-height:1.7;margin:0}
header{display:flex;align-items:center;gap:16px;border-bottom:3px solid ${settings.primary_color};padding-bottom:12px}
header img.logo{width:48px;height:48px;object-fit:contain}
header .title{font-size:13pt;color:${settings.primary_color};font-weight:700}
.who{display:flex;gap:20px;align-items:center;margin:20px 0 8px}
.who img{width:96px;height:96px;border-radius:50%;object-fit:cover}
.who .initial{width:96px;height:96px;border-radius:50%;background:${settings.primary_color};color:#fff;display:flex;align-items:center;justify-content:center;font-size:36pt;font-weight:700}
h1{font-size:20pt;margin:0;line-height:1.5}
.sub{color:#6b7280}
h2{font-size:12pt;color:${settings.primary_color};margin:18px 0 4px;border-bottom:1px solid #e5e7eb}
table{border-collapse:collapse;width:100%}
th{text-align:start;font-weight:400;color:#6b7280;width:34%;padding:3px 8px 3px 0;vertical-align:top}
td{padding:3px 0;white-space:pre-wrap}
p{white-space:pre-wrap;margin:4px 0}
footer{margin-top:28px;color:#6b7280;font-size:9pt;border-top:1px solid #e5e7eb;padding-top:6px;display:flex;justify-content:space-between}
</style></head><body>
<header>${logo ? `<img class="logo" src="${logo}" alt="">` : ''}<div class="title">${escapeHtml(titleOf(settings, locale))}</div><div style="flex:1"></div><div>${l('heading')}</div></header>
<div class="who">${
    picture
      ? `<img src="${picture}" alt="">`
      : `<div class="initial">${escapeHtml((profile.full_name ?? profile.name).slice(0, 1).toUpperCase())}</div>`
  }<div><h1>${escapeHtml(profile.full_name ?? profile.name)}</h1><div class="sub">${escapeHtml(
    [profile.position, profile.store?.name].filter(Boolean).join(' · '),
  )}</div></div></div>
${section(
  'personal',
  row('name', profile.name) +
    row('full_name', profile.full_name) +
    row('gender', profile.gender ? LABELS[profile.gender][locale] : null) +
    row('date_of_birth', printedDate(profile.date_of_birth)) +
    row('nationality', profile.nationality),
)}
${section(
  'contact',
  row('email', profile.email) +
    row('phone', profile.phone) +
    row('address', profile.address) +
    row('location', profile.location) +
    row('timezone', profile.timezone),
)}
${section(
  'work',
  row('position', profile.position) +
    row('join_date', printedDate(profile.join_date)) +
    row('store', profile.store?.name) +
    row('roles', roles),
)}
${section(
  'emergency',
  row('full_name', profile.emergency_contact_name) +
    row('relationship', profile.emergency_contact_relationship) +
    row('phone', profile.emergency_contact_phone) +
    row('email', profile.emergency_contact_email),
)}
${profile.bio ? `<h2>${l('bio')}</h2><p>${escapeHtml(profile.bio)}</p>` : ''}
${profile.skills ? `<h2>${l('skills')}</h2><p>${escapeHtml(profile.skills)}</p>` : ''}
<footer><span>${escapeHtml(settings.footer_text)}</span><span>${l('printed')} ${escapeHtml(printedDate(today) ?? '')}</span></footer>
</body></html>`;
}

/** A picture from the uploads folder as a data URL (Chromium is given no file access). */
export async function pictureData(uploadsDir: string, url: string | null): Promise<string | null> {
  if (!url?.startsWith('/uploads/') || url.includes('..')) return null;
  const bytes = await fs.readFile(path.join(uploadsDir, url.slice('/uploads/'.length))).catch(() => null);
  const type = url.endsWith('.png') ? 'image/png' : 'image/webp';
  return bytes ? `data:${type};base64,${bytes.toString('base64')}` : null;
}
