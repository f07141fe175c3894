/** A text in both interface languages. */
export type Msg = { de: string; tr: string };
export type Lang = 'de' | 'tr';

export const messages = {
  unauthorized: { de: 'Bitte anmelden.', tr: 'Giriş yapmak gerekiyor.' },
  forbidden: { de: 'Keine Berechtigung für diese Aktion.', tr: 'Bu işlem için yetki yok.' },
  notFound: { de: 'Nicht gefunden.', tr: 'Bulunamadı.' },
  validation: { de: 'Bitte überprüfen Sie Ihre Eingaben', tr: 'Girilen bilgiler kontrol edilmeli' },
  internal: {
    de: 'Ein unerwarteter Fehler ist aufgetreten. Bitte später erneut versuchen.',
    tr: 'Beklenmeyen bir hata oluştu. Daha sonra tekrar denenmeli.',
  },
  rateLimited: {
    de: 'Zu viele Versuche. Bitte einige Minuten warten und dann erneut versuchen.',
    tr: 'Çok fazla deneme. Birkaç dakika sonra tekrar denenebilir.',
  },
  loginFailed: { de: 'E-Mail oder Passwort ist falsch.', tr: 'E-posta veya şifre yanlış.' },
  accountDeactivated: {
    de: 'Dieses Konto ist deaktiviert. Die Schulverwaltung hilft weiter.',
    tr: 'Bu hesap devre dışı bırakıldı. Okul yönetimi yardımcı olur.',
  },
  required: { de: 'Dieses Feld ist erforderlich.', tr: 'Bu alan zorunludur.' },
  email: { de: 'Bitte eine gültige E-Mail-Adresse eingeben.', tr: 'Geçerli bir e-posta adresi gerekli.' },
  payloadTooLarge: { de: 'Die Anfrage ist zu groß.', tr: 'İstek çok büyük.' },
  unsupportedMedia: { de: 'Dieses Format wird nicht unterstützt.', tr: 'Bu biçim desteklenmiyor.' },
  unknownParameter: { de: 'Unbekannter Parameter.', tr: 'Bilinmeyen parametre.' },
  methodNotAllowed: { de: 'Diese Methode ist hier nicht erlaubt.', tr: 'Bu yöntem burada kullanılamaz.' },
  requestTimeout: {
    de: 'Die Anfrage kam nicht rechtzeitig an. Bitte erneut versuchen.',
    tr: 'İstek zamanında ulaşmadı. Tekrar denenmeli.',
  },
  headersTooLarge: { de: 'Die Kopfzeilen der Anfrage sind zu groß.', tr: 'İstek başlıkları çok büyük.' },
  rangeNotSatisfiable: { de: 'Der angeforderte Bereich ist nicht verfügbar.', tr: 'İstenen aralık mevcut değil.' },
  badRequest: { de: 'Die Anfrage ist fehlerhaft.', tr: 'İstek hatalı.' },
  unknownField: { de: 'Dieses Feld ist unbekannt.', tr: 'Bu alan tanınmıyor.' },
  tooDeep: { de: 'Die Daten sind zu tief verschachtelt.', tr: 'Veriler çok derin iç içe.' },
} satisfies Record<string, Msg>;

export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly msg: Msg,
    public readonly fieldErrors?: Record<string, Msg[]>,
    public readonly extra?: Record<string, unknown>,
    public readonly headers?: Record<string, string>,
  ) {
    super(msg.de);
    this.name = 'AppError';
  }
}

export const unauthorized = () => new AppError(401, messages.unauthorized);
export const forbidden = (msg: Msg = messages.forbidden) => new AppError(403, msg);
export const notFound = (msg: Msg = messages.notFound) => new AppError(404, msg);
export const conflict = (msg: Msg, extra?: Record<string, unknown>) => new AppError(409, msg, undefined, extra);
/** 422 with errors for one or more fields. */
export const invalid = (fields: Record<string, Msg | Msg[]>) =>
  new AppError(
    422,
    messages.validation,
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) ? v : [v]])),
  );
