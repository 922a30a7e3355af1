// The built-in strings in French (France), "vous". French typography: a no-break space (U+00A0)
// before ":" and a narrow no-break space (U+202F) before ";", "!" and "?", written as escapes so they
// stay visible here. Millions take "de" ("1 000 000 de personnes"): the `many` cases.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'fr-FR',
  name: 'Français',
  dir: 'ltr',
  number: { decimal: ',', group: '\u202F', minimumGroupingDigits: 1, digits: '0123456789' },
};

const proof = 'Votre navigateur effectue une courte vérification qui tient les robots d’achat à l’écart\u00A0: ';

export const catalog: Catalog = {
  fromSite: 'Message du site\u00A0:',
  languageLabel: 'Langue',
  checkNow: 'Vérifier maintenant',

  durationUnknown: 'un délai inconnu',
  durationUnderMinute: 'moins d’une minute',
  durationMinutes:
    '{minutes, plural, =1 {environ une minute} one {environ # minute} many {environ # de minutes} other {environ # minutes}}',
  durationHours:
    '{hours, plural, =1 {environ une heure} one {environ # heure} many {environ # d’heures} other {environ # heures}}',
  durationRangeMinutes:
    '{to, plural, one {entre {from} et # minute environ} many {entre {from} et # de minutes environ} other {entre {from} et # minutes environ}}',
  durationRangeHours:
    '{to, plural, one {entre {from} et # heure environ} many {entre {from} et # d’heures environ} other {entre {from} et # heures environ}}',
  durationRange: 'entre {from} et {to}',
  peopleNone: 'personne',
  peopleExact: '{count, plural, one {# personne} many {# de personnes} other {# personnes}}',
  peopleAbout: '{count, plural, one {environ # personne} many {environ # de personnes} other {environ # personnes}}',
  dateUtc: '{weekday} {day, select, 1 {1er} other {{day}}} {month} {year} à {time} UTC',
  weekdays: 'dimanche|lundi|mardi|mercredi|jeudi|vendredi|samedi',
  months: 'janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre',

  waitingTitleStart: 'Vous êtes dans la file d’attente',
  waitingTitleKeep: 'Toujours dans la file d’attente',
  waitingIntroStartRandom:
    'Le site est très sollicité. Pour qu’il reste accessible à tous, les visiteurs entrent par petits groupes, tirés au sort parmi toutes les personnes en attente.',
  waitingIntroStartFifo:
    'Le site est très sollicité. Pour qu’il reste accessible à tous, les visiteurs entrent par petits groupes, dans leur ordre d’arrivée.',
  waitingIntroKeepRandom:
    'Ce n’est pas encore votre tour. Le site est très sollicité, les visiteurs entrent donc par petits groupes, tirés au sort parmi toutes les personnes en attente.',
  waitingIntroKeepFifo:
    'Ce n’est pas encore votre tour. Le site est très sollicité, les visiteurs entrent donc par petits groupes, dans leur ordre d’arrivée.',
  waitingIntroKeepPrequeue:
    'Ce n’est pas encore votre tour. À l’ouverture de la vente, chaque personne de la pré-file, y compris vous, a reçu une place dans la file, attribuée au hasard. Les visiteurs entrent par petits groupes, dans l’ordre de ces places.',
  waitingKeepOpen:
    'Gardez cette page ouverte\u00A0: elle vérifie pour vous et vous fait entrer sur le site dès que c’est votre tour. Actualiser la page ne change rien à vos chances, et vous pouvez partir à tout moment.',
  placeHeading: 'Votre place dans la file',
  placeAhead: 'Devant vous\u00A0: {people}',
  turnIn: 'Votre tour viendra dans {duration}.',
  yourLane: 'Votre file\u00A0: {lane}',
  waitHeading: 'Attente estimée',
  waitWithin: 'La plupart des visiteurs entrent en {duration}',
  waitWithinMinute: 'La plupart des visiteurs entrent en moins d’une minute',
  waitPending: 'L’estimation est en cours. Elle s’affichera ici dès qu’elle sera connue.',
  wait25: '1 visiteur sur 4 entre en {duration}',
  wait50: 'La moitié en {duration}',
  wait75: '3 sur 4 en {duration}',
  noscriptWaiting:
    'Les scripts sont désactivés, cette page ne peut donc pas vérifier pour vous. Votre prochaine chance viendra dans {seconds, plural, one {environ # seconde} many {environ # de secondes} other {environ # secondes}}.',
  noscriptProof: 'Tant que le site est aussi sollicité, vos chances sont plus faibles sans les scripts.',
  notifyButton: 'M’avertir quand c’est mon tour',

  prequeueTitle: 'La vente commence bientôt',
  prequeueIntro:
    'Vous êtes dans la pré-file d’attente. À l’ouverture de la vente, chaque personne de la pré-file reçoit une place dans la file, attribuée au hasard.',
  prequeueStartLabel: 'Début de la vente\u00A0:',
  prequeueNoJump:
    'Arriver en avance, actualiser la page ou ouvrir d’autres onglets ne vous fait pas avancer. Gardez cette page ouverte\u00A0: elle vous fera entrer dès le début de la vente.',
  prequeueNoscript:
    'Les scripts sont désactivés, cette page ne peut donc pas vérifier pour vous. Revenez après le début de la vente et réessayez.',

  denyTitle: 'Fermé pour le moment',
  denyBody: 'Le site n’accepte pas de nouveaux visiteurs pour le moment. Le problème ne vient pas de vous.',
  closedTitle: 'La vente est terminée',
  closedBody:
    'Cet événement est terminé et le site n’accepte plus de visiteurs par ce biais. Le problème ne vient pas de vous.',
  tryLater: 'Veuillez réessayer plus tard.',
  tryAgain: 'Réessayer',
  denyAuto:
    'Tant que cette page reste ouverte, elle vérifie de nouveau régulièrement, à quelques minutes d’intervalle, et vous fait entrer dès l’ouverture du site.',

  originDownTitle: 'Temporairement indisponible',
  originDownHeading: 'Le site ne répond pas pour le moment',
  originDownBody: 'Veuillez réessayer dans un instant.',
  hammerTitle: 'Toujours en attente',
  hammerHeading: 'Vous êtes toujours dans la file',
  hammerBody:
    '{seconds, plural, one {Cette page a été actualisée trop souvent. Vous gardez votre place\u00A0: la page vérifiera de nouveau d’elle-même dans # seconde.} many {Cette page a été actualisée trop souvent. Vous gardez votre place\u00A0: la page vérifiera de nouveau d’elle-même dans # de secondes.} other {Cette page a été actualisée trop souvent. Vous gardez votre place\u00A0: la page vérifiera de nouveau d’elle-même dans # secondes.}}',

  clientNextCheck: 'Prochaine vérification dans {time}',
  clientStartsIn: 'Début dans {time}',
  clientMoment: 'un instant',
  clientNotYet: 'Ce n’est pas encore votre tour. Prochaine vérification dans {time}.',
  clientTurn: 'C’est votre tour. Chargement du site…',
  clientTurnTitle: 'C’est votre tour\u202F!',
  clientTurnBody: 'Revenez sur cet onglet pour accéder au site.',
  clientNotifyOn: 'Vous recevrez une notification quand ce sera votre tour.',
  clientUnreachable: 'Impossible de joindre le site. Nouvel essai dans un instant.',
  clientStarted: 'La vente a commencé. Chargement…',
  clientStillClosed: 'Toujours fermé. Cette page vérifiera de nouveau dans quelques minutes.',
  clientProofStarted: `${proof}elle vient de commencer.`,
  clientProofQuarter: `${proof}elle en est environ au quart.`,
  clientProofHalf: `${proof}elle en est environ à la moitié.`,
  clientProofThreeQuarters: `${proof}elle en est environ aux trois quarts.`,
  clientProofNearly: `${proof}elle est presque terminée.`,
  clientProofDone: 'Vérification terminée. Vous participez au tirage au sort.',
};
