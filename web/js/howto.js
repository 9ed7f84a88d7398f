// @ts-check
/** "How to play": a short page in English and Italian (the rules in full are the federations' and RULES.md). */
import { getLang } from './i18n.js';

const EN = `
<p><b>Burraco</b> is played by two pairs (North–South against East–West) or head to head, with two decks and four jokers (108 cards). Play runs clockwise: the player on your left plays after you.</p>
<h3>Your turn</h3>
<ol>
  <li><b>Take</b>: draw the top card of the stock (<i>tallone</i>), or pick up the whole discard pile.</li>
  <li><b>Meld</b> (optional): lay down new melds, or add cards to your side's melds. Select cards in your hand, then press <i>Open</i>, or tap one of your melds to attach.</li>
  <li><b>Discard</b> one card to end the turn: select it and press <i>Discard</i> (or drag it onto the pile).</li>
</ol>
<h3>Melds</h3>
<ul>
  <li>A <b>sequence</b>: three or more cards in a row of one suit (e.g. 5♥ 6♥ 7♥).</li>
  <li>A <b>combination</b>: three or more cards of one rank (e.g. 9♣ 9♦ 9♠).</li>
  <li>Jokers and 2s are <b>wild</b>: at most one wild per meld. A meld of seven or more cards is a <b>burraco</b>, worth a bonus.</li>
</ul>
<h3>The pozzetto and closing</h3>
<p>When you have played all your cards, you take your side's <i>pozzetto</i> (11 more cards) and go on. To <b>close</b> the hand your side needs its pozzetto and at least one burraco; then you play or discard your last card.</p>
<h3>Scoring</h3>
<p>Cards melded count for you, cards left in hand count against you; burracos and closing add bonuses. A match is a few hands, or a race to a target score.</p>
<p class="muted small">A clock may limit each move: when it runs out the server plays the turn for you (it draws if needed and discards your highest card).</p>`;

const IT = `
<p>Il <b>Burraco</b> si gioca in due coppie (Nord–Sud contro Est–Ovest) o testa a testa, con due mazzi e quattro jolly (108 carte). Si gioca in senso orario: dopo di te gioca chi ti siede a sinistra.</p>
<h3>Il tuo turno</h3>
<ol>
  <li><b>Prendi</b>: pesca la prima carta del tallone, oppure raccogli tutti gli scarti.</li>
  <li><b>Cala</b> (se vuoi): metti giù nuovi giochi, o attacca carte ai giochi della tua coppia. Seleziona le carte in mano, poi premi <i>Cala</i>, o tocca un tuo gioco per attaccarle.</li>
  <li><b>Scarta</b> una carta per finire il turno: selezionala e premi <i>Scarta</i> (o trascinala sugli scarti).</li>
</ol>
<h3>I giochi</h3>
<ul>
  <li>La <b>scala</b>: tre o più carte in fila dello stesso seme (es. 5♥ 6♥ 7♥).</li>
  <li>Il <b>tris</b> (combinazione): tre o più carte dello stesso valore (es. 9♣ 9♦ 9♠).</li>
  <li>Jolly e 2 sono <b>matte</b>: al massimo una matta per gioco. Un gioco di sette o più carte è un <b>burraco</b>, che vale un premio.</li>
</ul>
<h3>Il pozzetto e la chiusura</h3>
<p>Quando hai giocato tutte le carte prendi il <i>pozzetto</i> della tua coppia (altre 11 carte) e continui. Per <b>chiudere</b> la smazzata la coppia deve aver preso il pozzetto e avere almeno un burraco; poi giochi o scarti l'ultima carta.</p>
<h3>Il punteggio</h3>
<p>Le carte calate contano a favore, quelle rimaste in mano contro; burraco e chiusura danno premi. Una partita è di qualche smazzata, o a punteggio.</p>
<p class="muted small">Ogni mossa può avere un tempo: quando scade il server gioca il turno per te (pesca se serve e scarta la tua carta più alta).</p>`;

/** The page's body, in the page's language. */
export function howToHtml() {
  return getLang() === 'it' ? IT : EN;
}
