export const PartnersScreen = () => <section data-screen="PartnersScreen" />;
