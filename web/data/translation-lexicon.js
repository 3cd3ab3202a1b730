// attnlab/web/data/translation-lexicon.js: the English → French lexicon of the translation
// generator (web/data/translation.js): nouns with gender and plural, adjectives with their four
// forms and their place in French, verbs with the six present forms used and the past
// participle, the pronouns and possessives of every person. Written by hand for this project
// (public domain, like the rest of attnlab's generated data); no download.
//
// Row formats (one string per word, fields split on '|'; an empty field means "the regular form"):
//   noun       en | enPlural | fr | frPlural | gender (m/f) | class (a animate, t thing, p place or
//              institution) | flags (s: singular only, a mass noun; h: French h aspiré, no elision)
//   adjective  en | fr m.sg | fr f.sg | fr m.pl | fr f.pl | English order (1 opinion/quality,
//              2 size, 3 age, 4 shape, 5 colour, 6 origin, 7 type) | French place (pre/post) |
//              classes it goes with (a, t, p; any of them) | m.sg before a vowel (bel, nouvel, vieil)
//   verb       en base | en 3sg | en past participle | fr je | fr vous | fr il | fr nous | fr ils |
//              fr participle | kind (t transitive, i intransitive)
// Regular forms: English plural +s, 3sg +s, participle +ed; French plural +s; feminine +e.
// Deliberately not here: the grammar (translation.js), the tokenizer (its TRANSLATION_TOKENIZER).

const split = (rows) =>
  rows
    .trim()
    .split('\n')
    .map((r) => r.trim().split('|'));

const NOUN_ROWS = split(`
cat||chat||m|a|
dog||chien||m|a|
horse||cheval|chevaux|m|a|
bird||oiseau|oiseaux|m|a|
mouse|mice|souris|souris|f|a|
fish||poisson||m|a|
cow||vache||f|a|
pig||cochon||m|a|
rabbit||lapin||m|a|
duck||canard||m|a|
fox|foxes|renard||m|a|
wolf|wolves|loup||m|a|
bear||ours|ours|m|a|
bone||os|os|m|t|
lion||lion||m|a|
tiger||tigre||m|a|
snake||serpent||m|a|
frog||grenouille||f|a|
monkey||singe||m|a|
goat||chèvre||f|a|
elephant||éléphant||m|a|
spider||araignée||f|a|
bee||abeille||f|a|
ant||fourmi||f|a|
man|men|homme||m|a|
woman|women|femme||f|a|
boy||garçon||m|a|
girl||fille||f|a|
child|children|enfant||m|a|
baby|babies|bébé||m|a|
sister||sœur||f|a|
brother||frère||m|a|
friend||ami||m|a|
mother||mère||f|a|
father||père||m|a|
uncle||oncle||m|a|
aunt||tante||f|a|
son||fils|fils|m|a|
cousin||cousin||m|a|
neighbor||voisin||m|a|
teacher||professeur||m|a|
doctor||médecin||m|a|
student||étudiant||m|a|
king||roi||m|a|
queen||reine||f|a|
farmer||fermier||m|a|
cook||cuisinier||m|a|
driver||chauffeur||m|a|
artist||artiste||m|a|
writer||écrivain||m|a|
singer||chanteur||m|a|
lawyer||avocat||m|a|
nurse||infirmière||f|a|
soldier||soldat||m|a|
pilot||pilote||m|a|
actor||acteur||m|a|
painter||peintre||m|a|
baker||boulanger||m|a|
guest||invité||m|a|
car||voiture||f|t|
house||maison||f|p|
apple||pomme||f|t|
book||livre||m|t|
bread||pain||m|t|s
door||porte||f|t|
garden||jardin||m|p|
city|cities|ville||f|p|
table||table||f|t|
area||zone||f|p|
chair||chaise||f|t|
window||fenêtre||f|t|
bed||lit||m|t|
key||clé||f|t|
letter||lettre||f|t|
bottle||bouteille||f|t|
glass|glasses|verre||m|t|
cup||tasse||f|t|
plate||assiette||f|t|
knife|knives|couteau|couteaux|m|t|
fork||fourchette||f|t|
spoon||cuillère||f|t|
box|boxes|boîte||f|t|
bag||sac||m|t|
hat||chapeau|chapeaux|m|t|
shirt||chemise||f|t|
dress|dresses|robe||f|t|
shoe||chaussure||f|t|
coat||manteau|manteaux|m|t|
ball||balle||f|t|
toy||jouet||m|t|
picture||tableau|tableaux|m|t|
photo||photo||f|t|
lamp||lampe||f|t|
clock||horloge||f|t|
phone||téléphone||m|t|
computer||ordinateur||m|t|
newspaper||journal|journaux|m|t|
map||carte||f|t|
pen||stylo||m|t|
pencil||crayon||m|t|
bike||vélo||m|t|
boat||bateau|bateaux|m|t|
train||train||m|t|
plane||avion||m|t|
truck||camion||m|t|
ship||navire||m|t|
road||route||f|p|
street||rue||f|p|
bridge||pont||m|p|
river||rivière||f|p|
lake||lac||m|p|
sea||mer||f|p|
mountain||montagne||f|p|
forest||forêt||f|p|
tree||arbre||m|t|
flower||fleur||f|t|
field||champ||m|p|
farm||ferme||f|p|
school||école||f|p|
church|churches|église||f|p|
hotel||hôtel||m|p|
hospital||hôpital|hôpitaux|m|p|
shop||magasin||m|p|
market||marché||m|p|
bank||banque||f|p|
office||bureau|bureaux|m|p|
room||chambre||f|p|
kitchen||cuisine||f|p|
wall||mur||m|t|
roof||toit||m|t|
village||village||m|p|
country|countries|pays|pays|m|p|
island||île||f|p|
beach|beaches|plage||f|p|
cake||gâteau|gâteaux|m|t|
cheese||fromage||m|t|s
egg||œuf||m|t|
milk||lait||m|t|s
water||eau||f|t|s
wine||vin||m|t|s
soup||soupe||f|t|s
meat||viande||f|t|s
orange||orange||f|t|
banana||banane||f|t|
pear||poire||f|t|
lemon||citron||m|t|
tomato|tomatoes|tomate||f|t|
carrot||carotte||f|t|
song||chanson||f|t|
story|stories|histoire||f|t|
film||film||m|t|
game||jeu|jeux|m|t|
idea||idée||f|t|
question||question||f|t|
answer||réponse||f|t|
gift||cadeau|cadeaux|m|t|
ticket||billet||m|t|
stone||pierre||f|t|
star||étoile||f|t|
moon||lune||f|t|
cloud||nuage||m|t|
wheel||roue||f|t|
engine||moteur||m|t|
piano||piano||m|t|
guitar||guitare||f|t|
violin||violon||m|t|
drum||tambour||m|t|
pocket||poche||f|t|
umbrella||parapluie||m|t|
blanket||couverture||f|t|
pillow||oreiller||m|t|
mirror||miroir||m|t|
painting||peinture||f|t|
castle||château|châteaux|m|p|
tower||tour||f|p|
museum||musée||m|p|
library|libraries|bibliothèque||f|p|
station||gare||f|p|
airport||aéroport||m|p|
park||parc||m|p|
restaurant||restaurant||m|p|
theater||théâtre||m|p|
economy|economies|économie||f|p|
company|companies|entreprise||f|p|
government||gouvernement||m|p|
plan||plan||m|p|
project||projet||m|p|
report||rapport||m|p|
policy|policies|politique||f|p|
union||union||f|p|
council||conseil||m|p|
parliament||parlement||m|p|
law||loi||f|p|
treaty|treaties|traité||m|p|
budget||budget||m|p|
agreement||accord||m|p|
`);

const ADJECTIVE_ROWS = split(`
beautiful|beau|belle|beaux|belles|1|pre|atp|bel
pretty|joli||||1|pre|atp|
good|bon|bonne|||1|pre|atp|
bad|mauvais|mauvaise|mauvais||1|pre|atp|
small|petit||||2|pre|atp|
big|grand||||2|pre|atp|
long|long|longue|||2|pre|tp|
new|nouveau|nouvelle|nouveaux|nouvelles|3|pre|atp|nouvel
old|vieux|vieille|vieux|vieilles|3|pre|atp|vieil
young|jeune|jeune|||3|pre|a|
happy|heureux|heureuse|heureux|heureuses|1|post|a|
sad|triste|triste|||1|post|a|
tired|fatigué||||1|post|a|
angry|fâché||||1|post|a|
rich|riche|riche|||1|post|ap|
poor|pauvre|pauvre|||1|post|ap|
famous|célèbre|célèbre|||1|post|atp|
strong|fort||||1|post|a|
weak|faible|faible|||1|post|a|
kind|gentil|gentille|||1|post|a|
smart|intelligent||||1|post|a|
brave|courageux|courageuse|courageux|courageuses|1|post|a|
lazy|paresseux|paresseuse|paresseux|paresseuses|1|post|a|
busy|occupé||||1|post|ap|
funny|drôle|drôle|||1|post|at|
strange|étrange|étrange|||1|post|atp|
important|important||||1|post|atp|
difficult|difficile|difficile|||1|post|tp|
easy|facile|facile|||1|post|tp|
interesting|intéressant||||1|post|atp|
boring|ennuyeux|ennuyeuse|ennuyeux|ennuyeuses|1|post|atp|
expensive|cher|chère|||1|post|tp|
delicious|délicieux|délicieuse|délicieux|délicieuses|1|post|t|
fresh|frais|fraîche|frais|fraîches|1|post|t|
sweet|sucré||||1|post|t|
hot|chaud||||1|post|t|
cold|froid||||1|post|tp|
empty|vide|vide|||1|post|tp|
full|plein||||1|post|tp|
heavy|lourd||||1|post|t|
soft|doux|douce|doux|douces|1|post|t|
hard|dur||||1|post|t|
dirty|sale|sale|||1|post|atp|
clean|propre|propre|||1|post|atp|
quiet|calme|calme|||1|post|ap|
noisy|bruyant||||1|post|ap|
fast|rapide|rapide|||1|post|at|
slow|lent||||1|post|at|
huge|énorme|énorme|||2|post|atp|
tiny|minuscule|minuscule|||2|post|atp|
short|court||||2|post|t|
modern|moderne|moderne|||3|post|tp|
ancient|ancien|ancienne|||3|post|tp|
round|rond||||4|post|t|
square|carré||||4|post|t|
flat|plat||||4|post|t|
red|rouge|rouge|||5|post|t|
black|noir||||5|post|at|
white|blanc|blanche|||5|post|at|
green|vert||||5|post|t|
blue|bleu||||5|post|t|
yellow|jaune|jaune|||5|post|t|
grey|gris|grise|gris||5|post|at|
brown|brun||||5|post|at|
pink|rose|rose|||5|post|t|
purple|violet|violette|||5|post|t|
european|européen|européenne|||6|post|atp|
french|français|française|français||6|post|atp|
english|anglais|anglaise|anglais||6|post|atp|
italian|italien|italienne|||6|post|atp|
german|allemand||||6|post|atp|
spanish|espagnol||||6|post|atp|
american|américain||||6|post|atp|
chinese|chinois|chinoise|chinois||6|post|atp|
japanese|japonais|japonaise|japonais||6|post|atp|
economic|économique|économique|||7|post|p|
political|politique|politique|||7|post|p|
social|social|sociale|sociaux||7|post|p|
public|public|publique|||7|post|p|
national|national|nationale|nationaux||7|post|p|
international|international|internationale|internationaux||7|post|p|
financial|financier|financière|||7|post|p|
cultural|culturel|culturelle|||7|post|p|
military|militaire|militaire|||7|post|p|
local|local|locale|locaux||7|post|p|
central|central|centrale|centraux||7|post|p|
`);

const VERB_ROWS = split(`
see|sees|seen|vois|voyez|voit|voyons|voient|vu|t
eat|eats|eaten|mange|mangez|mange|mangeons|mangent|mangé|t
like|likes|liked|aime|aimez|aime|aimons|aiment|aimé|t
have|has|had|ai|avez|a|avons|ont|eu|t
find|finds|found|trouve|trouvez|trouve|trouvons|trouvent|trouvé|t
want|wants|wanted|veux|voulez|veut|voulons|veulent|voulu|t
take|takes|taken|prends|prenez|prend|prenons|prennent|pris|t
buy|buys|bought|achète|achetez|achète|achetons|achètent|acheté|t
sell|sells|sold|vends|vendez|vend|vendons|vendent|vendu|t
open|opens|opened|ouvre|ouvrez|ouvre|ouvrons|ouvrent|ouvert|t
close|closes|closed|ferme|fermez|ferme|fermons|ferment|fermé|t
watch|watches|watched|regarde|regardez|regarde|regardons|regardent|regardé|t
love|loves|loved|adore|adorez|adore|adorons|adorent|adoré|t
hate|hates|hated|déteste|détestez|déteste|détestons|détestent|détesté|t
know|knows|known|connais|connaissez|connaît|connaissons|connaissent|connu|t
read|reads|read|lis|lisez|lit|lisons|lisent|lu|t
write|writes|written|écris|écrivez|écrit|écrivons|écrivent|écrit|t
paint|paints|painted|peins|peignez|peint|peignons|peignent|peint|t
clean|cleans|cleaned|nettoie|nettoyez|nettoie|nettoyons|nettoient|nettoyé|t
wash|washes|washed|lave|lavez|lave|lavons|lavent|lavé|t
carry|carries|carried|porte|portez|porte|portons|portent|porté|t
bring|brings|brought|apporte|apportez|apporte|apportons|apportent|apporté|t
visit|visits|visited|visite|visitez|visite|visitons|visitent|visité|t
help|helps|helped|aide|aidez|aide|aidons|aident|aidé|t
call|calls|called|appelle|appelez|appelle|appelons|appellent|appelé|t
hear|hears|heard|entends|entendez|entend|entendons|entendent|entendu|t
use|uses|used|utilise|utilisez|utilise|utilisons|utilisent|utilisé|t
prepare|prepares|prepared|prépare|préparez|prépare|préparons|préparent|préparé|t
draw|draws|drawn|dessine|dessinez|dessine|dessinons|dessinent|dessiné|t
drink|drinks|drunk|bois|buvez|boit|buvons|boivent|bu|t
follow|follows|followed|suis|suivez|suit|suivons|suivent|suivi|t
meet|meets|met|rencontre|rencontrez|rencontre|rencontrons|rencontrent|rencontré|t
forget|forgets|forgotten|oublie|oubliez|oublie|oublions|oublient|oublié|t
lose|loses|lost|perds|perdez|perd|perdons|perdent|perdu|t
leave|leaves|left|quitte|quittez|quitte|quittons|quittent|quitté|t
keep|keeps|kept|garde|gardez|garde|gardons|gardent|gardé|t
choose|chooses|chosen|choisis|choisissez|choisit|choisissons|choisissent|choisi|t
finish|finishes|finished|finis|finissez|finit|finissons|finissent|fini|t
build|builds|built|construis|construisez|construit|construisons|construisent|construit|t
break|breaks|broken|casse|cassez|casse|cassons|cassent|cassé|t
fix|fixes|fixed|répare|réparez|répare|réparons|réparent|réparé|t
show|shows|shown|montre|montrez|montre|montrons|montrent|montré|t
push|pushes|pushed|pousse|poussez|pousse|poussons|poussent|poussé|t
catch|catches|caught|attrape|attrapez|attrape|attrapons|attrapent|attrapé|t
touch|touches|touched|touche|touchez|touche|touchons|touchent|touché|t
kiss|kisses|kissed|embrasse|embrassez|embrasse|embrassons|embrassent|embrassé|t
thank|thanks|thanked|remercie|remerciez|remercie|remercions|remercient|remercié|t
cut|cuts|cut|coupe|coupez|coupe|coupons|coupent|coupé|t
hide|hides|hidden|cache|cachez|cache|cachons|cachent|caché|t
borrow|borrows|borrowed|emprunte|empruntez|emprunte|empruntons|empruntent|emprunté|t
order|orders|ordered|commande|commandez|commande|commandons|commandent|commandé|t
study|studies|studied|étudie|étudiez|étudie|étudions|étudient|étudié|t
understand|understands|understood|comprends|comprenez|comprend|comprenons|comprennent|compris|t
learn|learns|learned|apprends|apprenez|apprend|apprenons|apprennent|appris|t
admire|admires|admired|admire|admirez|admire|admirons|admirent|admiré|t
prefer|prefers|preferred|préfère|préférez|préfère|préférons|préfèrent|préféré|t
receive|receives|received|reçois|recevez|reçoit|recevons|reçoivent|reçu|t
describe|describes|described|décris|décrivez|décrit|décrivons|décrivent|décrit|t
send|sends|sent|envoie|envoyez|envoie|envoyons|envoient|envoyé|t
sleep|sleeps|slept|dors|dormez|dort|dormons|dorment|dormi|i
run|runs|run|cours|courez|court|courons|courent|couru|i
sing|sings|sung|chante|chantez|chante|chantons|chantent|chanté|i
dance|dances|danced|danse|dansez|danse|dansons|dansent|dansé|i
work|works|worked|travaille|travaillez|travaille|travaillons|travaillent|travaillé|i
laugh|laughs|laughed|ris|riez|rit|rions|rient|ri|i
walk|walks|walked|marche|marchez|marche|marchons|marchent|marché|i
swim|swims|swum|nage|nagez|nage|nageons|nagent|nagé|i
play|plays|played|joue|jouez|joue|jouons|jouent|joué|i
cry|cries|cried|pleure|pleurez|pleure|pleurons|pleurent|pleuré|i
smile|smiles|smiled|souris|souriez|sourit|sourions|sourient|souri|i
wait|waits|waited|attends|attendez|attend|attendons|attendent|attendu|i
`);

/** Plural of a regular English noun. */
function enPlural(w) {
  if (/(s|x|ch|sh)$/.test(w)) return `${w}es`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

/** French plural of a regular noun or masculine adjective (s, x, z stay; -eau/-eu take x; -al → -aux). */
function frPlural(w) {
  if (/[sxz]$/.test(w)) return w;
  if (/(eau|eu)$/.test(w)) return `${w}x`;
  return `${w}s`;
}

export const NOUNS = Object.freeze(
  NOUN_ROWS.map(([en, enPl, fr, frPl, gender, cls, flags]) =>
    Object.freeze({
      en,
      enPlural: enPl || enPlural(en),
      fr,
      frPlural: frPl || frPlural(fr),
      gender,
      cls,
      mass: (flags ?? '').includes('s'),
    }),
  ),
);

export const ADJECTIVES = Object.freeze(
  ADJECTIVE_ROWS.map(([en, ms, fs, mp, fp, order, place, classes, vowelForm]) => {
    const f = fs || `${ms}e`;
    return Object.freeze({
      en,
      order: Number(order),
      pre: place === 'pre',
      classes,
      forms: Object.freeze({
        ms,
        fs: f,
        mp: mp || frPlural(ms),
        fp: fp || `${f}s`,
        vowel: vowelForm || ms,
      }),
    });
  }),
);

export const VERBS = Object.freeze(
  VERB_ROWS.map(([base, s3, pp, je, vous, il, nous, ils, part, kind]) =>
    Object.freeze({
      en: Object.freeze({ base, s3, pp }),
      fr: Object.freeze({ je, vous, il, nous, ils, part }),
      transitive: kind === 't',
    }),
  ),
);

// The persons. English subject, object, possessive; French subject, object (direct), possessive
// stem (m.sg / f.sg / pl). "you" is always vous (one translation for one word), "they" ils,
// and the first and second persons are masculine where French must choose (i am happy → je
// suis heureux).
export const PERSONS = Object.freeze(
  [
    {
      key: 'i',
      en: { subj: 'i', obj: 'me', poss: 'my', be: 'am', have: 'have', do: 'do' },
      fr: { subj: 'je', obj: 'me', poss: ['mon', 'ma', 'mes'], form: 'je' },
      gender: 'm',
      plural: false,
    },
    {
      key: 'you',
      en: { subj: 'you', obj: 'you', poss: 'your', be: 'are', have: 'have', do: 'do' },
      fr: { subj: 'vous', obj: 'vous', poss: ['votre', 'votre', 'vos'], form: 'vous' },
      gender: 'm',
      plural: false,
    },
    {
      key: 'he',
      en: { subj: 'he', obj: 'him', poss: 'his', be: 'is', have: 'has', do: 'does' },
      fr: { subj: 'il', obj: 'le', poss: ['son', 'sa', 'ses'], form: 'il' },
      gender: 'm',
      plural: false,
    },
    {
      key: 'she',
      en: { subj: 'she', obj: 'her', poss: 'her', be: 'is', have: 'has', do: 'does' },
      fr: { subj: 'elle', obj: 'la', poss: ['son', 'sa', 'ses'], form: 'il' },
      gender: 'f',
      plural: false,
    },
    {
      key: 'we',
      en: { subj: 'we', obj: 'us', poss: 'our', be: 'are', have: 'have', do: 'do' },
      fr: { subj: 'nous', obj: 'nous', poss: ['notre', 'notre', 'nos'], form: 'nous' },
      gender: 'm',
      plural: true,
    },
    {
      key: 'they',
      en: { subj: 'they', obj: 'them', poss: 'their', be: 'are', have: 'have', do: 'do' },
      fr: { subj: 'ils', obj: 'les', poss: ['leur', 'leur', 'leurs'], form: 'ils' },
      gender: 'm',
      plural: true,
    },
  ].map((p) => Object.freeze(p)),
);

/** être and avoir, by French person form. */
export const ETRE = Object.freeze({
  je: 'suis',
  vous: 'êtes',
  il: 'est',
  nous: 'sommes',
  ils: 'sont',
  part: 'été',
});
export const AVOIR = Object.freeze({ je: 'ai', vous: 'avez', il: 'a', nous: 'avons', ils: 'ont' });

/** The prepositions of the place and company phrases: English → French (de and à contract with le/les). */
export const PREPOSITIONS = Object.freeze(
  [
    ['in', ['dans']],
    ['on', ['sur']],
    ['with', ['avec']],
    ['near', ['près', 'de']],
    ['under', ['sous']],
    ['behind', ['derrière']],
    ['for', ['pour']],
    ['to', ['à']],
    ['from', ['de']],
    ['without', ['sans']],
  ].map(([en, fr]) => Object.freeze({ en, fr: Object.freeze(fr) })),
);

/** Conjunctions joining two clauses: English word(s) → French word(s) (que and si elide). */
export const CONJUNCTIONS = Object.freeze(
  [
    ['and', ['et']],
    ['but', ['mais']],
    ['because', ['parce', 'que']],
    ['when', ['quand']],
    ['if', ['si']],
    ['so', ['donc']],
    ['while', ['pendant', 'que']],
  ].map(([en, fr]) => Object.freeze({ en, fr: Object.freeze(fr) })),
);

/** Verbs that take a "that" clause: English 3 forms → French forms (je vous il nous ils part). */
export const SAY_VERBS = Object.freeze(
  [
    {
      en: { base: 'think', s3: 'thinks', pp: 'thought' },
      fr: {
        je: 'pense',
        vous: 'pensez',
        il: 'pense',
        nous: 'pensons',
        ils: 'pensent',
        part: 'pensé',
      },
    },
    {
      en: { base: 'say', s3: 'says', pp: 'said' },
      fr: { je: 'dis', vous: 'dites', il: 'dit', nous: 'disons', ils: 'disent', part: 'dit' },
    },
    {
      en: { base: 'believe', s3: 'believes', pp: 'believed' },
      fr: {
        je: 'crois',
        vous: 'croyez',
        il: 'croit',
        nous: 'croyons',
        ils: 'croient',
        part: 'cru',
      },
    },
    {
      en: { base: 'hope', s3: 'hopes', pp: 'hoped' },
      fr: {
        je: 'espère',
        vous: 'espérez',
        il: 'espère',
        nous: 'espérons',
        ils: 'espèrent',
        part: 'espéré',
      },
    },
  ].map((v) => Object.freeze(v)),
);

/** Words whose French starts with h muet (elision applies, as before a vowel). */
export const H_MUET = Object.freeze(
  new Set([
    'homme',
    'hommes',
    'hôtel',
    'hôtels',
    'hôpital',
    'hôpitaux',
    'histoire',
    'histoires',
    'heureux',
    'heureuse',
    'heureuses',
  ]),
);

/** True when French word w begins with a vowel sound (elision and the vowel forms apply). */
export function vowelInitial(w) {
  return /^[aeiouyàâäéèêëîïôöùûüœæ]/i.test(w) || H_MUET.has(w);
}
