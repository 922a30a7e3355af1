// Hindi (India). Formal "आप", in the everyday Hindi of Indian apps and shops: common English loanwords
// where Hindi readers use them ("साइट", "पेज", "विज़िटर", "ब्राउज़र"), Sanskrit coinages avoided. Noun
// forms change after a postposition ("1 घंटा" but "1 घंटे में"), so the sentences that carry a duration
// give it after a colon, where it stays as it stands alone. The danda (।) ends sentences. Numbers:
// Latin digits (what Intl writes for hi-IN), Indian grouping ("12,34,567"), decimal point. For a
// reviewer: "संयोग से चुने गए" (picked by chance) for the draw, and "प्री-कतार" for the pre-queue.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'hi-IN',
  name: 'हिन्दी',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, secondaryGroup: 2, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: 'साइट की ओर से संदेश:',
  languageLabel: 'भाषा',
  checkNow: 'अभी जाँचें',

  durationUnknown: 'अज्ञात समय',
  durationUnderMinute: 'एक मिनट से कम',
  durationMinutes: '{minutes, plural, =1 {लगभग एक मिनट} one {लगभग # मिनट} other {लगभग # मिनट}}',
  durationHours: '{hours, plural, =1 {लगभग एक घंटा} one {लगभग # घंटा} other {लगभग # घंटे}}',
  durationRangeMinutes: '{to, plural, one {लगभग {from} से # मिनट} other {लगभग {from} से # मिनट}}',
  durationRangeHours: '{to, plural, one {लगभग {from} से # घंटा} other {लगभग {from} से # घंटे}}',
  durationRange: '{from} – {to}',
  peopleNone: 'कोई नहीं',
  peopleExact: '{count, plural, one {# व्यक्ति} other {# लोग}}',
  peopleAbout: '{count, plural, one {लगभग # व्यक्ति} other {लगभग # लोग}}',
  dateUtc: '{weekday}, {day} {month} {year}, {time} UTC',
  weekdays: 'रविवार|सोमवार|मंगलवार|बुधवार|गुरुवार|शुक्रवार|शनिवार',
  months: 'जनवरी|फ़रवरी|मार्च|अप्रैल|मई|जून|जुलाई|अगस्त|सितंबर|अक्तूबर|नवंबर|दिसंबर',

  waitingTitleStart: 'आप कतार में हैं',
  waitingTitleKeep: 'आप अब भी कतार में हैं',
  waitingIntroStartRandom:
    'इस समय साइट पर बहुत भीड़ है। साइट सबके लिए ठीक से चलती रहे, इसलिए विज़िटर्स को थोड़े-थोड़े करके अंदर आने दिया जा रहा है, जिन्हें इंतज़ार कर रहे सभी लोगों में से संयोग से चुना जाता है।',
  waitingIntroStartFifo:
    'इस समय साइट पर बहुत भीड़ है। साइट सबके लिए ठीक से चलती रहे, इसलिए विज़िटर्स को थोड़े-थोड़े करके, उनके आने के क्रम में, अंदर आने दिया जा रहा है।',
  waitingIntroKeepRandom:
    'अभी आपकी बारी नहीं आई है। साइट पर बहुत भीड़ है, इसलिए विज़िटर्स को थोड़े-थोड़े करके अंदर आने दिया जा रहा है, जिन्हें इंतज़ार कर रहे सभी लोगों में से संयोग से चुना जाता है।',
  waitingIntroKeepFifo:
    'अभी आपकी बारी नहीं आई है। साइट पर बहुत भीड़ है, इसलिए विज़िटर्स को थोड़े-थोड़े करके, उनके आने के क्रम में, अंदर आने दिया जा रहा है।',
  waitingIntroKeepPrequeue:
    'अभी आपकी बारी नहीं आई है। बिक्री शुरू होने पर प्री-कतार में मौजूद सभी लोगों को, आपको भी, संयोग से कतार में एक जगह मिली। विज़िटर्स को थोड़े-थोड़े करके, इन जगहों के क्रम में, अंदर आने दिया जा रहा है।',
  waitingKeepOpen:
    'यह पेज खुला रखें: यह आपके लिए जाँच करता रहता है और आपकी बारी आते ही आपको साइट पर ले जाएगा। पेज रीफ़्रेश करने से आपकी संभावना नहीं बदलती, और आप कभी भी जा सकते हैं।',
  placeHeading: 'कतार में आपकी जगह',
  placeAhead: 'आपसे आगे: {people}',
  turnIn: 'आपकी बारी आने में बाकी समय: {duration}।',
  yourLane: 'आपकी कतार: {lane}',
  waitHeading: 'अनुमानित इंतज़ार',
  waitWithin: 'ज़्यादातर विज़िटर्स का इंतज़ार: {duration} या उससे कम',
  waitWithinMinute: 'ज़्यादातर विज़िटर्स का इंतज़ार: एक मिनट या उससे कम',
  waitPending: 'हम अभी इसका अनुमान लगा रहे हैं। पता चलते ही यह पेज इसे दिखाएगा।',
  wait25: 'हर 4 में से 1 विज़िटर का इंतज़ार: {duration} या उससे कम',
  wait50: 'आधे विज़िटर्स का: {duration} या उससे कम',
  wait75: '4 में से 3 का: {duration} या उससे कम',
  noscriptWaiting:
    'स्क्रिप्ट बंद हैं, इसलिए यह पेज आपके लिए जाँच नहीं कर सकता। आपका अगला मौका {seconds, plural, one {लगभग # सेकंड} other {लगभग # सेकंड}} में आएगा।',
  noscriptProof: 'जब तक साइट पर इतनी भीड़ है, स्क्रिप्ट के बिना आपकी संभावना कम रहती है।',
  notifyButton: 'मेरी बारी आने पर मुझे सूचना दें',

  prequeueTitle: 'बिक्री जल्द शुरू होगी',
  prequeueIntro: 'आप प्री-कतार में हैं। बिक्री शुरू होने पर प्री-कतार में मौजूद हर व्यक्ति को संयोग से कतार में एक जगह मिलेगी।',
  prequeueStartLabel: 'बिक्री शुरू होगी:',
  prequeueNoJump:
    'जल्दी आने, पेज रीफ़्रेश करने या और टैब खोलने से आप आगे नहीं बढ़ते। यह पेज खुला रखें: बिक्री शुरू होते ही यह आपको आगे ले जाएगा।',
  prequeueNoscript: 'स्क्रिप्ट बंद हैं, इसलिए यह पेज आपके लिए जाँच नहीं कर सकता। शुरुआत के बाद वापस आएँ और फिर से जाँचें।',

  denyTitle: 'अभी बंद है',
  denyBody: 'साइट इस समय नए विज़िटर्स को अंदर नहीं आने दे रही है। आपकी ओर से कोई गड़बड़ी नहीं है।',
  closedTitle: 'बिक्री समाप्त हो गई है',
  closedBody: 'यह इवेंट समाप्त हो गया है और साइट अब इसके ज़रिए विज़िटर्स को अंदर नहीं आने देती। आपकी ओर से कोई गड़बड़ी नहीं है।',
  tryLater: 'कृपया बाद में फिर से कोशिश करें।',
  tryAgain: 'फिर से कोशिश करें',
  denyAuto: 'जब तक यह पेज खुला है, यह हर कुछ मिनट में फिर से जाँचता है और साइट खुलते ही आपको आगे ले जाएगा।',

  originDownTitle: 'अस्थायी रूप से उपलब्ध नहीं',
  originDownHeading: 'साइट अभी जवाब नहीं दे रही है',
  originDownBody: 'कृपया थोड़ी देर में फिर से कोशिश करें।',
  hammerTitle: 'इंतज़ार जारी है',
  hammerHeading: 'आप अब भी कतार में हैं',
  hammerBody:
    '{seconds, plural, one {यह पेज बहुत बार जाँचा गया। आपकी जगह सुरक्षित है: यह # सेकंड में अपने-आप फिर से जाँचेगा।} other {यह पेज बहुत बार जाँचा गया। आपकी जगह सुरक्षित है: यह # सेकंड में अपने-आप फिर से जाँचेगा।}}',

  clientNextCheck: 'अगली जाँच में बाकी: {time}',
  clientStartsIn: 'शुरू होने में बाकी: {time}',
  clientMoment: 'कुछ ही पल',
  clientNotYet: 'अभी आपकी बारी नहीं आई है। अगली जाँच में बाकी: {time}।',
  clientTurn: 'आपकी बारी आ गई है। साइट लोड हो रही है…',
  clientTurnTitle: 'आपकी बारी आ गई है!',
  clientTurnBody: 'साइट पर जाने के लिए इस टैब पर वापस आएँ।',
  clientNotifyOn: 'आपकी बारी आने पर आपको सूचना मिलेगी।',
  clientUnreachable: 'साइट से संपर्क नहीं हो सका। थोड़ी देर में फिर से कोशिश करेंगे।',
  clientStarted: 'बिक्री शुरू हो गई है। लोड हो रहा है…',
  clientStillClosed: 'अभी भी बंद है। यह पेज कुछ मिनट में फिर से जाँचेगा।',
  clientProofStarted: 'आपका ब्राउज़र एक छोटी जाँच कर रहा है जो ऑटोमेटेड खरीदारों को दूर रखती है: अभी शुरू हुई है।',
  clientProofQuarter: 'आपका ब्राउज़र एक छोटी जाँच कर रहा है जो ऑटोमेटेड खरीदारों को दूर रखती है: लगभग एक चौथाई पूरी।',
  clientProofHalf: 'आपका ब्राउज़र एक छोटी जाँच कर रहा है जो ऑटोमेटेड खरीदारों को दूर रखती है: लगभग आधी पूरी।',
  clientProofThreeQuarters: 'आपका ब्राउज़र एक छोटी जाँच कर रहा है जो ऑटोमेटेड खरीदारों को दूर रखती है: लगभग तीन चौथाई पूरी।',
  clientProofNearly: 'आपका ब्राउज़र एक छोटी जाँच कर रहा है जो ऑटोमेटेड खरीदारों को दूर रखती है: लगभग पूरी।',
  clientProofDone: 'जाँच पूरी हुई। आप ड्रॉ में शामिल हैं।',
};
