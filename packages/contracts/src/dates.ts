/** The depots' time zone: Cambodia is UTC+7 all year. */
export const DEPOT_TIME_ZONE = 'Asia/Phnom_Penh';

// Made once: building an Intl formatter costs far more than using it (a sale asks several times).
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: DEPOT_TIME_ZONE });

/** Today's date where the depots are, `YYYY-MM-DD`: a product expiring today is still sellable today. */
export function todayInCambodia(at = new Date()): string {
  return dayFormat.format(at);
}
