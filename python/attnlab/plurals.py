"""The irregular plural nouns a word tokenizer's shape classes read as plural.

Written by scripts/build-plurals.mjs (its header says where the words come from); do not edit.
wasm/model/plurals.js holds the same 240 words.
"""

IRREGULAR_PLURALS = frozenset(
    """
    addenda alumnae alumni alveoli anchormen antennae arcana artillerymen assemblymen atria
    bacilli bagmen bambini barmen batsmen bellmen bijoux bogeymen bondsmen brakemen brethren
    bronchi buckteeth bullae bureaux businessmen businesswomen cabmen cacti cameramen candelabra
    capita carabinieri carpi castrati cattlemen cavalrymen chapeaux chateaux chelicerae cherubim
    children churchmen cilia clansmen clergymen coachmen consortia corpora councilmen countrymen
    countrywomen cowmen craftsmen crematoria crewmen criteria curricula data denarii desiderata
    dilettanti diplococci djinn doormen draftsmen effluvia ephemera esophagi eucalypti eyeteeth
    fedayeen feet firemen fishermen foci footmen fora foramina foremen formulae freshmen frogmen
    frontiersmen fundi fungi ganglia geese genera gentlemen gentlewomen gingivae gladioli
    godchildren goyim graffiti grandchildren groomsmen gunmen halfpence handymen hangmen headmen
    henchmen highwaymen hippopotami honoraria hydrozoa hymenoptera hyphae hypochondria incubi
    infantrymen journeymen jura kinsmen kronen labia landsmen larvae lawmen laymen lice lieder
    lire loci lumbermen madmen magmata mailmen malleoli marksmen marsupia mausolea maxima media
    memoranda men merchantmen metacarpi mice middlemen milkmen millennia minutiae mitochondria
    nebulae newsmen newspapermen noblemen nomina nota novae nuclei octopi oilmen ora outdoorsmen
    oxen paparazzi paramecia patrolmen pence personae petechiae phenomena phyla pitchmen
    plainclothesmen plena pneumococci policemen policewomen portmanteaux postmen protozoa
    pudenda pupae pylori radii repairmen rhonchi riflemen salesmen salespeople saleswomen samen
    sarcophagi seamen selectmen sequelae sera seraphim servicemen showmen simulacra snowmen
    solidi spacemen spectra spermatozoa spicula spokesmen sportsmen staphylococci statesmen
    stepchildren stigmata stimuli strata striae strongmen supernovae swordsmen syconia tableaux
    taxmen teeth tenderfeet titmice townsmen tradesmen tribesmen trivia ulnae ultimata
    underclassmen vertebrae villi vitae washerwomen watchmen weathermen wingmen wiremen women
    woodsmen workingmen workmen yachtsmen
    """.split()
)
