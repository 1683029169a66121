/**
 * The console's two languages: every sentence of its pages in English and Arabic, the choice of one
 * (a `lang` switch in the query, then the cookie it set, then `Accept-Language`), and numbers, riyals and
 * dates formatted for each (Intl, in Riyadh time).
 */

export const languages = ["en", "ar"] as const
export type Lang = (typeof languages)[number]

export const isLang = (value: string | null | undefined): value is Lang => value === "en" || value === "ar"

/** The first of `Accept-Language`'s languages (by weight) that the console speaks; English otherwise. */
export const fromAcceptLanguage = (header: string | undefined): Lang => {
  if (header === undefined) return "en"
  const ranked = header.split(",").map((part, i) => {
    const [tag, ...params] = part.trim().split(";")
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    return { lang: tag.trim().toLowerCase().split("-")[0], weight: Number.isFinite(weight) ? weight : 0, i }
  }).filter((r) => r.weight > 0).sort((a, b) => b.weight - a.weight || a.i - b.i)
  return ranked.map((r) => r.lang).find(isLang) ?? "en"
}

const en = {
  console: "Console",
  skip: "Skip to the content",
  signIn: "Sign in",
  signOut: "Sign out",
  signInIntro: "Sign in with the console token printed when the platform started (CONSOLE_TOKEN).",
  consoleToken: "Console token",
  wrongToken: "That token is not the console token.",
  tooManyAttempts: "Too many sign-in attempts from this address. Wait {seconds} seconds, then try again.",
  sessionEnded: "Your session has ended. Sign in again; nothing was changed.",
  formExpired: "This form has expired or did not come from the console. Nothing was changed; go back and try again.",
  formTooLarge: "The form is larger than the console accepts. Nothing was changed.",
  notFound: "Nothing here: no such page or record.",
  refused: "The platform refused this.",
  somethingWrong: "Something went wrong on our side. Nothing is shown of it here; quote the request id {id}.",
  backHome: "Back to the console",
  language: "Language",
  otherLanguage: "العربية",
  home: "Overview",
  approvals: "Approvals",
  accounts: "Accounts",
  pendingApprovals: "Pending approvals",
  noPending: "No approval is waiting for a decision.",
  approval: "Approval",
  operation: "Operation",
  account: "Account",
  askedBy: "Asked by",
  member: "Member",
  role: "Role",
  roleOwner: "owner",
  roleAdmin: "admin",
  roleAgent: "agent",
  unknownPerson: "unknown",
  input: "Input",
  pathInput: "In the path",
  queryInput: "In the query",
  bodyInput: "In the body",
  nothing: "nothing",
  askedAt: "Asked at",
  expiresAt: "Expires at",
  decidedAt: "Decided at",
  status: "Status",
  statusPending: "pending: waiting for a decision",
  statusApproved: "approved: the same request, sent again, will run once",
  statusDenied: "denied",
  statusUsed: "used: the request ran",
  statusExpired: "expired",
  decidedNothing: "This approval is {status}: there is nothing left to decide.",
  note: "Note (optional)",
  approve: "Approve",
  deny: "Deny",
  notePrevious: "Note",
  open: "Open",
  name: "Name",
  created: "Created",
  createAccount: "Create an account",
  sandboxOnly: "Sandbox only",
  partner: "Partner account",
  yes: "yes",
  no: "no",
  noAccounts: "No account yet.",
  applications: "Applications",
  noApplications: "No application yet.",
  createApplication: "Create an application",
  approvedNow: "Approved now (live keys work at once)",
  application: "Application",
  approveApplication: "Approve the application",
  paused: "Paused",
  keys: "Keys",
  noKeys: "No key yet.",
  createKey: "Create a key",
  mode: "Mode",
  modeLive: "live",
  modeTest: "test",
  access: "Access",
  expiry: "Expiry",
  never: "never",
  key: "Key",
  revoke: "Revoke",
  revoked: "revoked",
  active: "active",
  confirmRevoke: "Revoke this key? Requests with it stop at once.",
  accountTokens: "Account tokens",
  noTokens: "No account token yet.",
  createToken: "Create an account token",
  email: "E-mail (optional)",
  shownOnce: "Copy it now: this is the only time it is shown. The console keeps only its prefix.",
  newKey: "New key",
  newToken: "New account token",
  copy: "Copy",
  copied: "Copied",
  prefix: "Prefix",
  continue: "Continue",
  fieldsRefused: "Some fields were refused:",
  summary: "{accounts} accounts, {pending} approvals waiting",
  requestId: "Request id",
  wallet: "Wallet",
  balance: "Balance",
  walletOk: "enough",
  walletLow: "low: below the alert",
  walletOut: "out: not enough for one code",
  codesLeft: "Codes left",
  monthSpend: "This month's spend",
  monthProjection: "This month's projection",
  lowBalanceAlert: "Low-balance alert",
  autoTopup: "Auto top-up",
  topup: "Top up",
  amountSar: "Amount in riyals (VAT added)",
  makeTopupLink: "Make a top-up link",
  topupLink: "Top-up link",
  amount: "Amount",
  vat: "VAT",
  total: "Total",
  paymentLink: "Payment link",
  simulatedPayment: "In development the payment simulator pays this link as its payer would.",
  payInSimulator: "Pay in the simulator",
  webhook: "Webhook",
  endpoint: "Endpoint",
  endpointUrl: "Endpoint URL (https)",
  saveEndpoint: "Save the endpoint",
  sendTestEvent: "Send a test event",
  deliveries: "Deliveries",
  noDeliveries: "No delivery yet.",
  event: "Event",
  attempts: "Attempts",
  replay: "Replay",
  testEvent: "test",
  signingSecret: "Signing secret",
}

export type MessageKey = keyof typeof en

const ar: Record<MessageKey, string> = {
  console: "لوحة التحكم",
  skip: "تخطَّ إلى المحتوى",
  signIn: "تسجيل الدخول",
  signOut: "تسجيل الخروج",
  signInIntro: "سجّل الدخول برمز لوحة التحكم الذي طُبع عند تشغيل المنصة (CONSOLE_TOKEN).",
  consoleToken: "رمز لوحة التحكم",
  wrongToken: "هذا الرمز ليس رمز لوحة التحكم.",
  tooManyAttempts: "محاولات دخول كثيرة من هذا العنوان. انتظر {seconds} ثانية ثم أعد المحاولة.",
  sessionEnded: "انتهت جلستك. سجّل الدخول من جديد؛ لم يتغيّر شيء.",
  formExpired: "انتهت صلاحية هذا النموذج أو لم يصدر عن لوحة التحكم. لم يتغيّر شيء؛ ارجع وأعد المحاولة.",
  formTooLarge: "النموذج أكبر مما تقبله لوحة التحكم. لم يتغيّر شيء.",
  notFound: "لا شيء هنا: لا توجد صفحة أو سجلّ بهذا العنوان.",
  refused: "رفضت المنصة هذا الطلب.",
  somethingWrong: "حدث خطأ من جهتنا. اذكر رقم الطلب {id}.",
  backHome: "العودة إلى لوحة التحكم",
  language: "اللغة",
  otherLanguage: "English",
  home: "نظرة عامة",
  approvals: "الموافقات",
  accounts: "الحسابات",
  pendingApprovals: "موافقات بانتظار القرار",
  noPending: "لا توجد موافقة بانتظار القرار.",
  approval: "موافقة",
  operation: "العملية",
  account: "الحساب",
  askedBy: "طلبها",
  member: "العضو",
  role: "الدور",
  roleOwner: "مالك",
  roleAdmin: "مشرف",
  roleAgent: "وكيل",
  unknownPerson: "غير معروف",
  input: "المدخلات",
  pathInput: "في المسار",
  queryInput: "في الاستعلام",
  bodyInput: "في المتن",
  nothing: "لا شيء",
  askedAt: "وقت الطلب",
  expiresAt: "تنتهي في",
  decidedAt: "وقت القرار",
  status: "الحالة",
  statusPending: "معلّقة: بانتظار القرار",
  statusApproved: "موافق عليها: الطلب نفسه إذا أُعيد إرساله يُنفَّذ مرة واحدة",
  statusDenied: "مرفوضة",
  statusUsed: "مستخدمة: نُفِّذ الطلب",
  statusExpired: "منتهية",
  decidedNothing: "هذه الموافقة {status}: لم يبقَ ما يُقرَّر.",
  note: "ملاحظة (اختيارية)",
  approve: "موافقة",
  deny: "رفض",
  notePrevious: "ملاحظة",
  open: "فتح",
  name: "الاسم",
  created: "أُنشئ في",
  createAccount: "إنشاء حساب",
  sandboxOnly: "بيئة تجريبية فقط",
  partner: "حساب شريك",
  yes: "نعم",
  no: "لا",
  noAccounts: "لا يوجد حساب بعد.",
  applications: "التطبيقات",
  noApplications: "لا يوجد تطبيق بعد.",
  createApplication: "إنشاء تطبيق",
  approvedNow: "معتمد الآن (تعمل المفاتيح الحية فورًا)",
  application: "التطبيق",
  approveApplication: "اعتماد التطبيق",
  paused: "موقوف مؤقتًا",
  keys: "المفاتيح",
  noKeys: "لا يوجد مفتاح بعد.",
  createKey: "إنشاء مفتاح",
  mode: "النوع",
  modeLive: "حي",
  modeTest: "تجريبي",
  access: "الصلاحيات",
  expiry: "الانتهاء",
  never: "لا ينتهي",
  key: "المفتاح",
  revoke: "إلغاء",
  revoked: "ملغى",
  active: "فعّال",
  confirmRevoke: "إلغاء هذا المفتاح؟ تتوقف الطلبات به فورًا.",
  accountTokens: "رموز الحساب",
  noTokens: "لا يوجد رمز حساب بعد.",
  createToken: "إنشاء رمز حساب",
  email: "البريد الإلكتروني (اختياري)",
  shownOnce: "انسخه الآن: هذه المرة الوحيدة التي يظهر فيها. لا تحتفظ لوحة التحكم إلا ببادئته.",
  newKey: "مفتاح جديد",
  newToken: "رمز حساب جديد",
  copy: "نسخ",
  copied: "نُسخ",
  prefix: "البادئة",
  continue: "متابعة",
  fieldsRefused: "رُفضت بعض الحقول:",
  summary: "{accounts} حسابات، {pending} موافقات بانتظار القرار",
  requestId: "رقم الطلب",
  wallet: "المحفظة",
  balance: "الرصيد",
  walletOk: "كافٍ",
  walletLow: "منخفض: أقل من حد التنبيه",
  walletOut: "نفد: لا يكفي لرمز واحد",
  codesLeft: "الرموز المتبقية",
  monthSpend: "إنفاق هذا الشهر",
  monthProjection: "الإنفاق المتوقع لهذا الشهر",
  lowBalanceAlert: "تنبيه انخفاض الرصيد",
  autoTopup: "الشحن التلقائي",
  topup: "شحن الرصيد",
  amountSar: "المبلغ بالريال (تضاف ضريبة القيمة المضافة)",
  makeTopupLink: "إنشاء رابط شحن",
  topupLink: "رابط الشحن",
  amount: "المبلغ",
  vat: "ضريبة القيمة المضافة",
  total: "الإجمالي",
  paymentLink: "رابط الدفع",
  simulatedPayment: "في بيئة التطوير يدفع محاكي الدفع هذا الرابط كما يدفعه الدافع.",
  payInSimulator: "الدفع في المحاكي",
  webhook: "الويب هوك",
  endpoint: "عنوان الاستقبال",
  endpointUrl: "عنوان الاستقبال (https)",
  saveEndpoint: "حفظ العنوان",
  sendTestEvent: "إرسال حدث تجريبي",
  deliveries: "عمليات التسليم",
  noDeliveries: "لا توجد عملية تسليم بعد.",
  event: "الحدث",
  attempts: "المحاولات",
  replay: "إعادة الإرسال",
  testEvent: "تجريبي",
  signingSecret: "سر التوقيع",
}

const messages: Record<Lang, Record<MessageKey, string>> = { en, ar }

export type Translate = (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string

/** The sentences of `lang`, with `{name}` filled from `vars` (numbers formatted for the language). */
export const translator = (lang: Lang): Translate => {
  const numbers = new Intl.NumberFormat(locale(lang))
  return (key, vars) =>
    vars === undefined ? messages[lang][key] : messages[lang][key].replace(
      /\{(\w+)\}/g,
      (_, name: string) => {
        const v = vars[name]
        return typeof v === "number" ? numbers.format(v) : v ?? ""
      },
    )
}

/** Arabic of Saudi Arabia on the Gregorian calendar (the platform's dates and invoices are Gregorian). */
const locale = (lang: Lang) => (lang === "ar" ? "ar-SA-u-ca-gregory" : "en-GB")

const moneyFormats = {
  en: new Intl.NumberFormat(locale("en"), {
    style: "currency",
    currency: "SAR",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
  ar: new Intl.NumberFormat(locale("ar"), {
    style: "currency",
    currency: "SAR",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
}

/** Halalas as riyals with two decimals: 12345 is SAR 123.45 (exact: the integer is split, never divided). */
export const formatSar = (lang: Lang, halalas: number): string => {
  const whole = Math.trunc(halalas / 100)
  const cents = Math.abs(halalas % 100)
  const sign = halalas < 0 ? "-" : ""
  return moneyFormats[lang].format(`${sign}${Math.abs(whole)}.${String(cents).padStart(2, "0")}` as any)
}

const dateFormats = {
  en: new Intl.DateTimeFormat(locale("en"), { timeZone: "Asia/Riyadh", dateStyle: "medium", timeStyle: "short" }),
  ar: new Intl.DateTimeFormat(locale("ar"), { timeZone: "Asia/Riyadh", dateStyle: "medium", timeStyle: "short" }),
}

/** A moment (UTC milliseconds or an ISO text) in Riyadh time, as the language writes dates. */
export const formatDate = (lang: Lang, at: number | string): string =>
  dateFormats[lang].format(typeof at === "string" ? new Date(at) : new Date(at))

export const formatNumber = (lang: Lang, n: number): string => new Intl.NumberFormat(locale(lang)).format(n)
