export const MyPartnersScreen = () => <section data-screen="MyPartnersScreen" />;
