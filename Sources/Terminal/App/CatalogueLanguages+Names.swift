extension CatalogueLanguages {
  /// Every code of ``codes`` with its English name and its own name (the same when the
  /// language has no other written name in common use), so `--language french` and
  /// `--language français` both mean `fr`.
  static let names: [String: (english: String, native: String)] = [
    "en": ("English", "English"), "fr": ("French", "français"), "fi": ("Finnish", "suomi"),
    "de": ("German", "Deutsch"), "it": ("Italian", "italiano"), "nl": ("Dutch", "Nederlands"),
    "es": ("Spanish", "español"), "pt": ("Portuguese", "português"),
    "hu": ("Hungarian", "magyar"), "zh": ("Chinese", "中文"), "sv": ("Swedish", "svenska"),
    "el": ("Greek", "ελληνικά"), "la": ("Latin", "latina"), "eo": ("Esperanto", "Esperanto"),
    "da": ("Danish", "dansk"), "ca": ("Catalan", "català"), "tl": ("Tagalog", "Tagalog"),
    "pl": ("Polish", "polski"), "ja": ("Japanese", "日本語"), "no": ("Norwegian", "norsk"),
    "fy": ("Frisian", "Frysk"), "cy": ("Welsh", "Cymraeg"), "af": ("Afrikaans", "Afrikaans"),
    "cs": ("Czech", "čeština"), "ru": ("Russian", "русский"), "he": ("Hebrew", "עברית"),
    "is": ("Icelandic", "íslenska"), "fur": ("Friulian", "furlan"),
    "bg": ("Bulgarian", "български"), "enm": ("Middle English", "Middle English"),
    "te": ("Telugu", "తెలుగు"), "ro": ("Romanian", "română"), "ang": ("Old English", "Englisc"),
    "sr": ("Serbian", "српски"), "sl": ("Slovenian", "slovenščina"),
    "nai": ("North American Indian", "North American Indian"), "nah": ("Nahuatl", "nāhuatl"),
    "myn": ("Mayan", "Mayan"), "ilo": ("Iloko", "Ilokano"), "ga": ("Irish", "Gaeilge"),
    "ceb": ("Cebuano", "Sinugboanon"), "gl": ("Galician", "galego"),
    "nav": ("Navajo", "Diné bizaad"), "grc": ("Ancient Greek", "Ἑλληνική"),
    "oc": ("Occitan", "occitan"), "mi": ("Maori", "Māori"), "arp": ("Arapaho", "Hinónoʼeitíít"),
    "gla": ("Scottish Gaelic", "Gàidhlig"), "brx": ("Bodo", "बड़ो"), "ko": ("Korean", "한국어"),
    "sa": ("Sanskrit", "संस्कृतम्"), "ale": ("Aleut", "Unangam Tunuu"), "yi": ("Yiddish", "ייִדיש"),
    "lt": ("Lithuanian", "lietuvių"), "kha": ("Khasi", "Khasi"),
    "ia": ("Interlingua", "interlingua"), "kld": ("Gamilaraay", "Gamilaraay"),
    "nap": ("Neapolitan", "napulitano"), "br": ("Breton", "brezhoneg"),
    "iu": ("Inuktitut", "ᐃᓄᒃᑎᑐᑦ"), "bgs": ("Tagabawa", "Tagabawa"),
    "csb": ("Kashubian", "kaszëbsczi"), "rmq": ("Caló", "caló"),
    "oji": ("Ojibwa", "Anishinaabemowin"), "ar": ("Arabic", "العربية"), "et": ("Estonian", "eesti"),
    "fa": ("Persian", "فارسی"), "sco": ("Scots", "Scots"), "bo": ("Tibetan", "བོད་སྐད་"),
    "hai": ("Haida", "X̱aat Kíl"),
  ]
}
