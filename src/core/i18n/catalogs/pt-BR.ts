// The built-in strings in Portuguese (Brazil), "você". Portuguese counts 0 to 1.9 as singular
// ("1,5 hora"), which make-plural's `one` covers; millions take "de" ("1.000.000 de pessoas"): `many`.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'pt-BR',
  name: 'Português (Brasil)',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 1, digits: '0123456789' },
};

const proof = 'Seu navegador está fazendo uma verificação rápida que barra compradores automatizados: ';

export const catalog: Catalog = {
  fromSite: 'Mensagem do site:',
  languageLabel: 'Idioma',
  checkNow: 'Verificar agora',

  durationUnknown: 'um tempo indeterminado',
  durationUnderMinute: 'menos de um minuto',
  durationMinutes:
    '{minutes, plural, =1 {cerca de um minuto} one {cerca de # minuto} many {cerca de # de minutos} other {cerca de # minutos}}',
  durationHours:
    '{hours, plural, =1 {cerca de uma hora} one {cerca de # hora} many {cerca de # de horas} other {cerca de # horas}}',
  durationRangeMinutes:
    '{to, plural, one {entre {from} e # minuto, aproximadamente} many {entre {from} e # de minutos, aproximadamente} other {entre {from} e # minutos, aproximadamente}}',
  durationRangeHours:
    '{to, plural, one {entre {from} e # hora, aproximadamente} many {entre {from} e # de horas, aproximadamente} other {entre {from} e # horas, aproximadamente}}',
  durationRange: 'de {from} a {to}',
  peopleNone: 'ninguém',
  peopleExact: '{count, plural, one {# pessoa} many {# de pessoas} other {# pessoas}}',
  peopleAbout: '{count, plural, one {cerca de # pessoa} many {cerca de # de pessoas} other {cerca de # pessoas}}',
  dateUtc: '{weekday}, {day, select, 1 {1º} other {{day}}} de {month} de {year}, às {time} UTC',
  weekdays: 'domingo|segunda-feira|terça-feira|quarta-feira|quinta-feira|sexta-feira|sábado',
  months: 'janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro',

  waitingTitleStart: 'Você está na fila',
  waitingTitleKeep: 'Você continua na fila',
  waitingIntroStartRandom:
    'O site está recebendo muitos acessos agora. Para que ele continue funcionando para todos, os visitantes entram aos poucos, sorteados entre todas as pessoas que estão esperando.',
  waitingIntroStartFifo:
    'O site está recebendo muitos acessos agora. Para que ele continue funcionando para todos, os visitantes entram aos poucos, por ordem de chegada.',
  waitingIntroKeepRandom:
    'Ainda não é a sua vez. O site está recebendo muitos acessos agora, por isso os visitantes entram aos poucos, sorteados entre todas as pessoas que estão esperando.',
  waitingIntroKeepFifo:
    'Ainda não é a sua vez. O site está recebendo muitos acessos agora, por isso os visitantes entram aos poucos, por ordem de chegada.',
  waitingIntroKeepPrequeue:
    'Ainda não é a sua vez. Quando a venda começou, todos na pré-fila, inclusive você, receberam uma posição na fila, por sorteio. Os visitantes entram aos poucos, na ordem dessas posições.',
  waitingKeepOpen:
    'Mantenha esta página aberta: ela verifica por você e leva você ao site quando chegar a sua vez. Atualizar a página não muda suas chances, e você pode sair a qualquer momento.',
  placeHeading: 'Sua posição na fila',
  placeAhead: 'À sua frente: {people}',
  turnIn: 'Sua vez deve chegar em {duration}.',
  yourLane: 'Sua fila: {lane}',
  waitHeading: 'Tempo de espera estimado',
  waitWithin: 'A maioria dos visitantes entra em {duration}',
  waitWithinMinute: 'A maioria dos visitantes entra em até um minuto',
  waitPending: 'Ainda estamos calculando. Esta página vai mostrar a estimativa assim que ela estiver disponível.',
  wait25: '1 em cada 4 visitantes entra em {duration}',
  wait50: 'Metade, em {duration}',
  wait75: '3 em cada 4, em {duration}',
  noscriptWaiting:
    'Os scripts estão desativados, então esta página não consegue verificar por você. Sua próxima chance vem em {seconds, plural, one {cerca de # segundo} many {cerca de # de segundos} other {cerca de # segundos}}.',
  noscriptProof: 'Enquanto o site estiver recebendo tantos acessos, sem scripts suas chances são menores.',
  notifyButton: 'Avise-me quando for a minha vez',

  prequeueTitle: 'A venda começa em breve',
  prequeueIntro:
    'Você está na pré-fila. Quando a venda começar, todos na pré-fila recebem uma posição na fila, por sorteio.',
  prequeueStartLabel: 'Início da venda:',
  prequeueNoJump:
    'Chegar mais cedo, atualizar a página ou abrir mais abas não faz você avançar. Mantenha esta página aberta: ela leva você adiante quando a venda começar.',
  prequeueNoscript:
    'Os scripts estão desativados, então esta página não consegue verificar por você. Volte depois do início e verifique novamente.',

  denyTitle: 'Fechado no momento',
  denyBody: 'O site não está aceitando novos visitantes no momento. Não há nenhum problema do seu lado.',
  closedTitle: 'A venda terminou',
  closedBody:
    'Este evento foi encerrado e o site não está mais aceitando visitantes por meio dele. Não há nenhum problema do seu lado.',
  tryLater: 'Tente novamente mais tarde.',
  tryAgain: 'Tentar novamente',
  denyAuto:
    'Enquanto esta página estiver aberta, ela verifica de novo a cada poucos minutos e leva você ao site assim que ele abrir.',

  originDownTitle: 'Temporariamente indisponível',
  originDownHeading: 'O site não está respondendo no momento',
  originDownBody: 'Tente novamente em instantes.',
  hammerTitle: 'Ainda aguardando',
  hammerHeading: 'Você continua na fila',
  hammerBody:
    '{seconds, plural, one {Esta página foi atualizada vezes demais. Sua posição está garantida: a página vai verificar de novo sozinha em # segundo.} many {Esta página foi atualizada vezes demais. Sua posição está garantida: a página vai verificar de novo sozinha em # de segundos.} other {Esta página foi atualizada vezes demais. Sua posição está garantida: a página vai verificar de novo sozinha em # segundos.}}',

  clientNextCheck: 'Próxima verificação em {time}',
  clientStartsIn: 'Começa em {time}',
  clientMoment: 'instantes',
  clientNotYet: 'Ainda não é a sua vez. A próxima verificação será em {time}.',
  clientTurn: 'Chegou a sua vez. Carregando o site…',
  clientTurnTitle: 'Chegou a sua vez!',
  clientTurnBody: 'Volte para esta aba para entrar no site.',
  clientNotifyOn: 'Você receberá uma notificação quando chegar a sua vez.',
  clientUnreachable: 'Não foi possível acessar o site. Tentando novamente em instantes.',
  clientStarted: 'A venda começou. Carregando…',
  clientStillClosed: 'Ainda fechado. Esta página vai verificar de novo em alguns minutos.',
  clientProofStarted: `${proof}acabou de começar.`,
  clientProofQuarter: `${proof}cerca de um quarto concluído.`,
  clientProofHalf: `${proof}cerca de metade concluída.`,
  clientProofThreeQuarters: `${proof}cerca de três quartos concluídos.`,
  clientProofNearly: `${proof}quase no fim.`,
  clientProofDone: 'Verificação concluída. Você está participando do sorteio.',
};
